// A ring that stores only a count per bucket.
class HitCounter {
    constructor(w = 300) {
        this.w = w;
        this.hits = new Array(w).fill(0);
    }
    hit(timestamp) {
        this.hits[timestamp % this.w]++;
    }
    getHits(timestamp) {
        return this.hits.reduce((sum, n) => sum + n, 0);
    }
}
