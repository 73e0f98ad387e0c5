// DeepCopyPtr<T>: an owning pointer like std::unique_ptr<T> whose copy copies the object it
// points to, so that a class holding an optional part (created on first use) stays copyable
// with the default copy constructor.
//
// Not thread-safe, as the T it owns. A copy of an empty pointer is empty.
//
// Example:
//     DeepCopyPtr<Visitors> v = std::make_unique<Visitors>();
//     DeepCopyPtr<Visitors> w = v;   // *w is a copy of *v, not the same object
#pragma once

#include <memory>
#include <utility>

namespace hitcounter {

template <typename T>
class DeepCopyPtr {
public:
    DeepCopyPtr() = default;
    DeepCopyPtr(std::unique_ptr<T> owned) : m_owned(std::move(owned)) {}  // NOLINT: as unique_ptr
    DeepCopyPtr(const DeepCopyPtr& other)
        : m_owned(other.m_owned ? std::make_unique<T>(*other.m_owned) : nullptr) {}
    DeepCopyPtr& operator=(const DeepCopyPtr& other) {
        if (this != &other) {
            m_owned = other.m_owned ? std::make_unique<T>(*other.m_owned) : nullptr;
        }
        return *this;
    }
    DeepCopyPtr(DeepCopyPtr&&) noexcept = default;
    DeepCopyPtr& operator=(DeepCopyPtr&&) noexcept = default;

    T* get() const { return m_owned.get(); }
    T* operator->() const { return m_owned.get(); }
    T& operator*() const { return *m_owned; }
    explicit operator bool() const { return m_owned != nullptr; }

private:
    std::unique_ptr<T> m_owned;
};

}  // namespace hitcounter
