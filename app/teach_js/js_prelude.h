// The JavaScript that js_counter.cpp evaluates before the learner's code: one function
// returning the tools the adapter calls (issue 24). Thread-safe (a constant).
//
// It returns an object with:
//     call(instance, name, t, counting)   resets the counters and runs instance[name](t);
//                           throws a TypeError when there is no such method. With counting, it
//                           counts operations: for the call, each field of the instance that
//                           holds an object holds a Proxy of it instead, so every read and
//                           write of an element or property of what the fields hold (arrays,
//                           objects, Maps, Sets, at any depth: they are wrapped as they are
//                           read) is one operation; reading a field itself (this.w, this.q) is
//                           free. Generic array methods run on the proxy, so slice, filter,
//                           splice, indexOf, reduce and for..of count every element they touch;
//                           push,
//                           pop, shift and unshift run on the array itself and count one (Qt's
//                           engine does them in constant time). A Map's or Set's methods count
//                           one, their iterations and forEach one per entry; a typed array's
//                           methods one per element. The fields hold the objects themselves
//                           again after the call. Counting makes a call some 30 times slower.
//     wrap(value)           the counting proxy of an object (the same one each time).
//     operations()          the count since the last call().
//     output()              what console.log (info, warn, error) printed since the last call,
//                           at most 40 lines of 200 characters.
//     size(instance)        the bytes the instance's state takes, estimated the same way for
//                           every counter: 8 a value's slot (a number, a reference), 16 an
//                           array's or object's header, 8 an object's key, 16 + 2 per character
//                           a string, a typed array's bytes; functions are code, not state.
//                           Shared objects count once; at most 2,000,000 values are visited.
//     describe(instance)    the instance's own fields: [{name, list, text, items, length}], a
//                           list's items (at most 400) and text as short strings.
// The prelude keeps its own references to Proxy, Reflect, WeakMap and the rest, so a learner's
// global of the same name does not change what it measures.
#pragma once

#include <string_view>

namespace hitcounter::teachjs {

extern const std::string_view kPrelude;

}  // namespace hitcounter::teachjs
