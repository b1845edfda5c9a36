//! Small helpers the algorithms share.

/// Makes `v` hold `n` copies of `x`, reusing its buffer when it is large enough. A buffer
/// that is too small is dropped first rather than grown: growing would copy its old contents
/// (which are about to be overwritten) into the new one.
#[inline]
pub fn refill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    if v.capacity() < n {
        *v = Vec::with_capacity(n.max(v.capacity() * 2));
    }
    v.resize(n, x);
}

#[cfg(test)]
mod tests {
    #[test]
    fn refill_sets_length_and_contents() {
        let mut v = vec![7u32; 3];
        super::refill(&mut v, 5, 1);
        assert_eq!(v, [1; 5]);
        let cap = v.capacity();
        super::refill(&mut v, 2, 9);
        assert_eq!((v.as_slice(), v.capacity()), (&[9, 9][..], cap));
    }
}
