// A deque that pops with `<` instead of `<=`: second t - W stays in.
var HitCounter = function (w) {
    this.w = w || 300;
    this.q = [];
};
HitCounter.prototype.hit = function (timestamp) {
    this.q.push(timestamp);
};
HitCounter.prototype.getHits = function (timestamp) {
    while (this.q.length && this.q[0] < timestamp - this.w) {
        this.q.shift();
    }
    return this.q.length;
};
