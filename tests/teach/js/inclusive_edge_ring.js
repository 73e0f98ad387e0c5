// The write-ups' ring with `<=` at the edge: a hit exactly W seconds old is still counted.
class HitCounter {
    constructor(w = 300) {
        this.w = w;
        this.times = new Array(w).fill(0);
        this.hits = new Array(w).fill(0);
    }
    hit(timestamp) {
        const i = timestamp % this.w;
        if (this.times[i] !== timestamp) {
            this.times[i] = timestamp;
            this.hits[i] = 1;
        } else {
            this.hits[i]++;
        }
    }
    getHits(timestamp) {
        let total = 0;
        for (let i = 0; i < this.w; i++) {
            if (timestamp - this.times[i] <= this.w) {
                total += this.hits[i];
            }
        }
        return total;
    }
}
