// Pasted unchanged from a write-up: 300 buckets, no W anywhere.
var HitCounter = function() {
    this.times = new Array(300).fill(0);
    this.hits = new Array(300).fill(0);
};

/**
 * @param {number} timestamp
 * @return {void}
 */
HitCounter.prototype.hit = function(timestamp) {
    const idx = timestamp % 300;
    if (this.times[idx] !== timestamp) {
        this.times[idx] = timestamp;
        this.hits[idx] = 1;
    } else {
        this.hits[idx]++;
    }
};

/**
 * @param {number} timestamp
 * @return {number}
 */
HitCounter.prototype.getHits = function(timestamp) {
    let total = 0;
    for (let i = 0; i < 300; i++) {
        if (timestamp - this.times[i] < 300) total += this.hits[i];
    }
    return total;
};
