//! Whether MPI pinned this process: Open MPI binds each rank to one core by
//! default, which crowds a rank's threads onto that core.

/// How many CPUs this process may run on and how many the machine has, when it may
/// not run on all of them (Linux; `None` elsewhere or when it may).
pub fn bound_cpus() -> Option<(usize, usize)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let allowed = status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
    let online = std::fs::read_to_string("/sys/devices/system/cpu/online").ok()?;
    let (allowed, online) = (cpu_count(allowed)?, cpu_count(&online)?);
    (allowed < online).then_some((allowed, online))
}

/// The number of CPUs in a Linux CPU list such as `0-3,8,10-11`.
fn cpu_count(list: &str) -> Option<usize> {
    list.trim().split(',').try_fold(0, |sum, part| {
        let (first, last) = part.split_once('-').unwrap_or((part, part));
        let (first, last): (usize, usize) = (first.parse().ok()?, last.parse().ok()?);
        Some(sum + last.checked_sub(first)? + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::cpu_count;

    #[test]
    fn linux_cpu_lists_are_counted() {
        assert_eq!(cpu_count("0-1\n"), Some(2));
        assert_eq!(cpu_count("0"), Some(1));
        assert_eq!(cpu_count("0-3,8,10-11"), Some(7));
        assert_eq!(cpu_count("3-1"), None);
        assert_eq!(cpu_count("x"), None);
    }
}
