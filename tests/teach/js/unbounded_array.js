// Every hit pushed, none ever removed.
class HitCounter {
    constructor(w = 300) {
        this.w = w;
        this.log = [];
    }
    hit(timestamp) {
        this.log.push(timestamp);
    }
    getHits(timestamp) {
        let count = 0;
        for (let i = 0; i < this.log.length; i++) {
            if (timestamp - this.log[i] < this.w) count++;
        }
        return count;
    }
}
