// The first write-up's array: find the first hit in the window, then copy the rest.
class HitCounter {
    constructor(w = 300) {
        this.w = w;
        this.log = [];
    }
    hit(timestamp) {
        this.log.push(timestamp);
    }
    getHits(timestamp) {
        let i = 0;
        while (i < this.log.length) {
            if (timestamp - this.log[i] < this.w) break;
            i++;
        }
        this.log = this.log.slice(i);
        return this.log.length;
    }
}
