//! Spreading search threads over sets of processors (NUMA nodes, processor
//! groups) in proportion to how many processors each set has.

/// The set each of `threads` threads goes to, for sets of `sizes[i]` processors:
/// each thread joins the set with the fewest threads per processor after it
/// joins (the lowest index on a tie), so the sets fill in proportion to their
/// sizes, and as many threads as processors fill every set exactly. Empty when
/// there is no set.
pub(crate) fn in_proportion(sizes: &[usize], threads: usize) -> Vec<usize> {
    if sizes.is_empty() {
        return Vec::new();
    }
    let mut count = vec![0usize; sizes.len()];
    (0..threads)
        .map(|_| {
            // (count + 1) / size of `a` against `b`'s, without division.
            let load = |a: usize, b: usize| (count[a] + 1) * sizes[b];
            let set = (0..sizes.len()).min_by(|&a, &b| load(a, b).cmp(&load(b, a))).unwrap_or(0);
            count[set] += 1;
            set
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(sets: &[usize], of: usize) -> Vec<usize> {
        (0..of).map(|set| sets.iter().filter(|&&s| s == set).count()).collect()
    }

    #[test]
    fn sets_fill_in_proportion_to_their_processors() {
        assert_eq!(in_proportion(&[4, 4], 5), [0, 1, 0, 1, 0]);
        assert_eq!(counts(&in_proportion(&[1, 3], 8), 2), [2, 6]);
        assert_eq!(counts(&in_proportion(&[64, 64, 16], 144), 3), [64, 64, 16]);
        // Beyond one thread per processor the proportion still holds.
        assert_eq!(counts(&in_proportion(&[64, 64, 16], 288), 3), [128, 128, 32]);
        assert_eq!(in_proportion(&[8], 3), [0, 0, 0]);
        assert!(in_proportion(&[], 3).is_empty());
    }
}
