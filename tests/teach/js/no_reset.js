// A ring that stores the time but never starts a reused bucket again.
class HitCounter {
    constructor(w = 300) {
        this.w = w;
        this.times = new Array(w).fill(0);
        this.hits = new Array(w).fill(0);
    }
    hit(timestamp) {
        const i = timestamp % this.w;
        this.times[i] = timestamp;
        this.hits[i]++;
    }
    getHits(timestamp) {
        let total = 0;
        for (let i = 0; i < this.w; i++) {
            if (timestamp - this.times[i] < this.w) total += this.hits[i];
        }
        return total;
    }
}
