class HitCounter {
    constructor() {
        this.n = 0;
    }
    hit(timestamp) {
        this.n++;
    }
    getHits(timestamp) {
        while (true) {
            this.n = this.n;
        }
    }
}
