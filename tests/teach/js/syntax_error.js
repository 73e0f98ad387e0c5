class HitCounter {
    constructor() {
        this.n = 0;
    }
    hit(timestamp) {
        this.n += ;
    }
    getHits(timestamp) {
        return this.n;
    }
}
