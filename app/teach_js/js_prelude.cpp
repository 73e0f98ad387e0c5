#include "app/teach_js/js_prelude.h"

namespace hitcounter::teachjs {

// Written for Qt 6.4's engine (ECMAScript 2016 with classes and Proxy; no globalThis, no ??).
const std::string_view kPrelude = R"JS((function (global) {
    "use strict";
    var P = Proxy, R = Reflect, WM = WeakMap, S = Set, M = Map, A = Array;
    var isArray = A.isArray, isView = ArrayBuffer.isView, keysOf = Object.keys;
    var protoOf = Object.getPrototypeOf;
    var ops = 0;
    var lines = [];
    var proxies = new WM();  // target -> its proxy
    var targets = new WM();  // proxy -> its target
    var constantTime = {push: true, pop: true, shift: true, unshift: true};
    var perEntry = {forEach: true, keys: true, values: true, entries: true};

    function unwrap(v) {
        return v !== null && typeof v === "object" && targets.has(v) ? targets.get(v) : v;
    }
    function unwrapAll(args) {
        var out = [];
        for (var i = 0; i < args.length; i++) out.push(unwrap(args[i]));
        return out;
    }
    function builtin(t) {  // objects whose methods need the real object as `this`
        return t instanceof M || t instanceof S || t instanceof WM || t instanceof WeakSet ||
               isView(t) || t instanceof Date || t instanceof RegExp;
    }
    function wrap(v) {
        if (v === null || typeof v !== "object" || targets.has(v)) return v;
        var known = proxies.get(v);
        if (known) return known;
        var array = isArray(v);
        var special = builtin(v);
        var p = new P(v, {
            get: function (t, k) {
                ops++;
                var x = R.get(t, k, t);
                if (typeof x === "function") {
                    if (array && constantTime[k] === true) {
                        return function () { return x.apply(t, unwrapAll(arguments)); };
                    }
                    if (special) {
                        return function () {
                            ops += isView(t) ? t.length : (perEntry[k] === true || k === Symbol.iterator) ? t.size : 0;
                            return wrap(x.apply(t, unwrapAll(arguments)));
                        };
                    }
                    return x;
                }
                return wrap(x);
            },
            set: function (t, k, value) { ops++; return R.set(t, k, unwrap(value), t); },
            has: function (t, k) { ops++; return R.has(t, k); },
            deleteProperty: function (t, k) { ops++; return R.deleteProperty(t, k); }
        });
        proxies.set(v, p);
        targets.set(p, v);
        return p;
    }

    function text(v, depth) {
        if (v === undefined) return "undefined";
        if (v === null) return "null";
        if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v);
        if (typeof v === "function") return "function";
        if (typeof v !== "object") return String(v);
        v = unwrap(v);
        if (depth > 1) return isArray(v) ? "[…]" : "{…}";
        var parts = [], n = 0, more = false;
        if (isArray(v) || isView(v)) {
            for (var i = 0; i < v.length; i++) {
                if (parts.length === 4) { more = true; break; }
                parts.push(text(v[i], depth + 1));
            }
            return "[" + parts.join(", ") + (more ? ", …" : "") + "]";
        }
        if (v instanceof M) {
            v.forEach(function (value, key) {
                if (n++ < 4) parts.push(text(key, depth + 1) + " → " + text(value, depth + 1));
                else more = true;
            });
            return "Map{" + parts.join(", ") + (more ? ", …" : "") + "}";
        }
        if (v instanceof S) {
            v.forEach(function (value) {
                if (n++ < 4) parts.push(text(value, depth + 1)); else more = true;
            });
            return "Set{" + parts.join(", ") + (more ? ", …" : "") + "}";
        }
        var ks = keysOf(v);
        for (var j = 0; j < ks.length; j++) {
            if (j === 4) { more = true; break; }
            parts.push(ks[j] + ": " + text(v[ks[j]], depth + 1));
        }
        return "{" + parts.join(", ") + (more ? ", …" : "") + "}";
    }

    function itemsOf(v, limit) {
        var items = [];
        if (isArray(v) || isView(v)) {
            for (var i = 0; i < v.length && items.length < limit; i++) items.push(text(v[i], 1));
            return {items: items, length: v.length};
        }
        if (v instanceof M) {
            v.forEach(function (value, key) {
                if (items.length < limit) items.push(text(key, 1) + " → " + text(value, 1));
            });
            return {items: items, length: v.size};
        }
        v.forEach(function (value) { if (items.length < limit) items.push(text(value, 1)); });
        return {items: items, length: v.size};
    }

    function describe(instance) {
        var out = [];
        var ks = keysOf(instance);
        for (var i = 0; i < ks.length && i < 24; i++) {
            var v = unwrap(instance[ks[i]]);
            var list = v !== null && typeof v === "object" &&
                       (isArray(v) || isView(v) || v instanceof M || v instanceof S);
            var field = {name: ks[i], list: list, text: text(v, 0), items: [], length: 0};
            if (list) {
                var l = itemsOf(v, 400);
                field.items = l.items;
                field.length = l.length;
            }
            out.push(field);
        }
        return out;
    }

    function size(instance) {
        var seen = new S();
        var bytes = 0, visits = 0;
        var stack = [instance];
        function held(v) {  // what a slot refers to (the slot itself is counted apart)
            if (typeof v === "string") bytes += 16 + 2 * v.length;
            else if (v !== null && typeof v === "object") stack.push(v);
        }
        function slot(v) {  // a value held in a slot: the slot, and what it refers to
            bytes += 8;
            held(v);
        }
        while (stack.length > 0 && visits < 2000000) {
            var o = unwrap(stack.pop());
            if (seen.has(o)) continue;
            seen.add(o);
            bytes += 16;
            if (isView(o)) { bytes += o.byteLength; continue; }
            if (isArray(o)) {
                bytes += 8 * o.length;  // every slot, holes too
                var n = o.length;
                if (n > 1000000) {
                    for (var k in o) {  // sparse and huge: only the elements that exist
                        visits++;
                        held(o[k]);
                    }
                } else {
                    for (var e = 0; e < n; e++) held(o[e]);
                    visits += n;
                }
                continue;
            }
            if (o instanceof M) {
                o.forEach(function (value, key) { visits++; slot(key); slot(value); });
                continue;
            }
            if (o instanceof S) {
                o.forEach(function (value) { visits++; slot(value); });
                continue;
            }
            if (typeof o === "function") continue;
            var ks = keysOf(o);
            for (var j = 0; j < ks.length; j++) {
                visits++;
                bytes += 8;  // the key
                var value = o[ks[j]];
                if (typeof value !== "function") slot(value);
            }
        }
        return bytes;
    }

    function say() {
        if (lines.length >= 40) return;
        var parts = [];
        for (var i = 0; i < arguments.length; i++) {
            parts.push(typeof arguments[i] === "string" ? arguments[i] : text(arguments[i], 0));
        }
        var line = parts.join(" ");
        lines.push(line.length > 200 ? line.slice(0, 200) + "…" : line);
    }
    global.console = {log: say, info: say, warn: say, error: say, debug: say};

    return {
        wrap: wrap,
        call: function (instance, name, t, counting) {
            ops = 0;
            lines = [];
            var f = instance[name];
            if (typeof f !== "function") {
                throw new TypeError("HitCounter has no method " + name + "()");
            }
            if (!counting) return f.call(instance, t);
            // The fields hold proxies for the call: what they hold is counted, not the fields.
            var ks = keysOf(instance), i;
            for (i = 0; i < ks.length; i++) instance[ks[i]] = wrap(instance[ks[i]]);
            try {
                return f.call(instance, t);
            } finally {
                ks = keysOf(instance);
                for (i = 0; i < ks.length; i++) instance[ks[i]] = unwrap(instance[ks[i]]);
            }
        },
        construct: function (Counter, w) {
            ops = 0;
            lines = [];
            return new Counter(w);
        },
        operations: function () { return ops; },
        output: function () { return lines.join("\n"); },
        size: size,
        describe: describe
    };
})(this)
)JS";

}  // namespace hitcounter::teachjs
