#include "core/teach/code_templates.h"

namespace hitcounter::teach {

const std::vector<CodeTemplate>& codeTemplates() {
    static const std::vector<CodeTemplate> all = {
        {"deque", "Deque of timestamps", R"JS(// A deque of timestamps, oldest first.
class HitCounter {
    constructor(w = 300) {
        this.w = w;
        this.queue = [];
    }

    hit(timestamp) {
        this.queue.push(timestamp);
    }

    getHits(timestamp) {
        // Pop the hits that left the window (timestamp - w, timestamp].
        while (this.queue.length > 0 && this.queue[0] <= timestamp - this.w) {
            this.queue.shift();
        }
        return this.queue.length;
    }
}
)JS"},
        {"ring", "Ring of W buckets (300 in LeetCode)",
         R"JS(// A ring of w buckets: bucket i holds the hits of the last second t with t % w == i.
class HitCounter {
    constructor(w = 300) {
        this.w = w;
        this.times = new Array(w).fill(0);
        this.hits = new Array(w).fill(0);
    }

    hit(timestamp) {
        const i = timestamp % this.w;
        if (this.times[i] !== timestamp) {
            // The bucket holds an older second: start it again.
            this.times[i] = timestamp;
            this.hits[i] = 1;
        } else {
            this.hits[i]++;
        }
    }

    getHits(timestamp) {
        let total = 0;
        for (let i = 0; i < this.w; i++) {
            if (timestamp - this.times[i] < this.w) {
                total += this.hits[i];
            }
        }
        return total;
    }
}
)JS"},
        {"vector", "Vector of every hit (the naive one)", R"JS(// Every hit, kept forever.
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
        for (const t of this.log) {
            if (t > timestamp - this.w && t <= timestamp) {
                count++;
            }
        }
        return count;
    }
}
)JS"},
    };
    return all;
}

const CodeTemplate* codeTemplate(std::string_view id) {
    for (const CodeTemplate& t : codeTemplates()) {
        if (t.id == id) {
            return &t;
        }
    }
    return nullptr;
}

}  // namespace hitcounter::teach
