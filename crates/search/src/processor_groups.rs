//! Processor groups: how Windows counts past 64 logical processors.
//!
//! Windows numbers logical processors in groups of at most 64: a machine with
//! 128 has two groups or more. Before Windows 11 and Windows Server 2022, every
//! thread of a process starts in one group (the process's) and stays there
//! unless it is moved, so a search whose threads all stayed would use at most
//! 64 processors. Where the machine has more than one active group, each search
//! thread therefore binds itself as it starts (`SetThreadGroupAffinity`) to all
//! the processors of one group, the threads spread over the groups in
//! proportion to their processors, as Stockfish does. A thread the NUMA policy
//! pinned is left where it was pinned. Where there is one group (every machine
//! with up to 64 logical processors, and every other system) nothing is bound.
//! On Windows 11 a thread may run in any group; the binding then only keeps each
//! thread within its share.

use std::io;

/// One active processor group: its number and its active logical processors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ProcessorGroup {
    /// The group's number, as Windows counts them.
    pub number: u16,
    /// The group's active logical processors, bit `i` for processor `i`.
    pub mask: usize,
}

impl ProcessorGroup {
    /// How many logical processors of the group are active.
    pub fn processors(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Binds the calling thread to every active processor of this group. An
    /// error leaves the thread where it was.
    pub fn bind_current_thread(&self) -> io::Result<()> {
        system::bind_current_thread(self)
    }
}

/// The machine's active processor groups that have an active processor (none
/// where the system has no groups or does not say).
pub(crate) fn active_groups() -> Vec<ProcessorGroup> {
    system::active_groups()
}

/// The group each of `threads` search threads binds to, spread over `groups`
/// in proportion to their processors; `None`, nothing to bind, unless there
/// are at least two groups.
pub(crate) fn assign(groups: &[ProcessorGroup], threads: usize) -> Option<Vec<ProcessorGroup>> {
    if groups.len() < 2 {
        return None;
    }
    let sizes: Vec<usize> = groups.iter().map(ProcessorGroup::processors).collect();
    Some(crate::spread::in_proportion(&sizes, threads).into_iter().map(|i| groups[i]).collect())
}

#[cfg(windows)]
mod system {
    //! `GetLogicalProcessorInformationEx` and `SetThreadGroupAffinity`.

    use super::ProcessorGroup;
    use std::io;
    use std::mem::offset_of;
    use windows_sys::Win32::System::SystemInformation::{
        GROUP_AFFINITY, GROUP_RELATIONSHIP, GetLogicalProcessorInformationEx, PROCESSOR_GROUP_INFO,
        RelationGroup, SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX,
    };
    use windows_sys::Win32::System::Threading::{GetCurrentThread, SetThreadGroupAffinity};

    /// The active groups as `GetLogicalProcessorInformationEx(RelationGroup)`
    /// lists them; empty if it fails.
    pub fn active_groups() -> Vec<ProcessorGroup> {
        let mut len = 0u32;
        // SAFETY: with a null buffer of length 0 the call only writes the
        // length it needs into `len` (and fails with ERROR_INSUFFICIENT_BUFFER).
        unsafe { GetLogicalProcessorInformationEx(RelationGroup, std::ptr::null_mut(), &mut len) };
        // In words, so that the records are aligned as they expect.
        let mut buffer = vec![0u64; (len as usize).div_ceil(8)];
        // SAFETY: `buffer` is writable, 8-byte aligned and at least `len` bytes
        // long; the call writes at most `len` bytes and sets `len` to what it wrote.
        let ok = unsafe {
            GetLogicalProcessorInformationEx(RelationGroup, buffer.as_mut_ptr().cast(), &mut len)
        };
        if ok == 0 {
            return Vec::new();
        }
        let bytes: Vec<u8> = buffer.iter().flat_map(|word| word.to_ne_bytes()).collect();
        parse(&bytes[..(len as usize).min(bytes.len())]).unwrap_or_default()
    }

    /// Reads the one `RelationGroup` record the call wrote (a
    /// `SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX` holding a `GROUP_RELATIONSHIP`
    /// with one `PROCESSOR_GROUP_INFO` per active group), field by field and
    /// within bounds; `None` if it is not one.
    pub(super) fn parse(bytes: &[u8]) -> Option<Vec<ProcessorGroup>> {
        fn read<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
            bytes.get(at..at + N)?.try_into().ok()
        }
        let relationship = offset_of!(SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX, Relationship);
        if i32::from_ne_bytes(read(bytes, relationship)?) != RelationGroup {
            return None;
        }
        let group = offset_of!(SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX, Anonymous);
        let active = group + offset_of!(GROUP_RELATIONSHIP, ActiveGroupCount);
        let first = group + offset_of!(GROUP_RELATIONSHIP, GroupInfo);
        let count = u16::from_ne_bytes(read(bytes, active)?);
        let groups: Option<Vec<ProcessorGroup>> = (0..count)
            .map(|number| {
                let info = first + usize::from(number) * size_of::<PROCESSOR_GROUP_INFO>();
                let mask = info + offset_of!(PROCESSOR_GROUP_INFO, ActiveProcessorMask);
                Some(ProcessorGroup { number, mask: usize::from_ne_bytes(read(bytes, mask)?) })
            })
            .collect();
        Some(groups?.into_iter().filter(|group| group.mask != 0).collect())
    }

    /// `SetThreadGroupAffinity` with the group's whole mask.
    pub fn bind_current_thread(group: &ProcessorGroup) -> io::Result<()> {
        let affinity = GROUP_AFFINITY { Mask: group.mask, Group: group.number, Reserved: [0; 3] };
        // SAFETY: `GetCurrentThread` is the calling thread's pseudo-handle (no
        // closing needed); `affinity` is a valid GROUP_AFFINITY the call only
        // reads; the previous affinity is not asked for (null is allowed).
        let ok =
            unsafe { SetThreadGroupAffinity(GetCurrentThread(), &affinity, std::ptr::null_mut()) };
        if ok != 0 { Ok(()) } else { Err(io::Error::last_os_error()) }
    }
}

#[cfg(not(windows))]
mod system {
    //! Elsewhere there are no processor groups.

    use super::ProcessorGroup;
    use std::io;

    /// None here.
    pub fn active_groups() -> Vec<ProcessorGroup> {
        Vec::new()
    }

    /// There is nothing to bind to here: always an error.
    pub fn bind_current_thread(_group: &ProcessorGroup) -> io::Result<()> {
        Err(io::Error::new(io::ErrorKind::Unsupported, "no processor groups on this system"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(number: u16, processors: u32) -> ProcessorGroup {
        let mask = if processors == usize::BITS { usize::MAX } else { (1 << processors) - 1 };
        ProcessorGroup { number, mask }
    }

    #[test]
    fn threads_spread_over_groups_by_their_processors() {
        let groups = [group(0, 64), group(1, 64), group(2, 16)];
        let assigned = assign(&groups, 144).expect("three groups: bound");
        let per_group: Vec<usize> =
            (0..3).map(|n| assigned.iter().filter(|g| g.number == n).count()).collect();
        assert_eq!(per_group, [64, 64, 16]);
        assert_eq!(&assigned[..4], &[groups[0], groups[1], groups[0], groups[1]]);
        // Fewer threads than processors: still in proportion, the small group last.
        let few = assign(&groups, 9).expect("bound");
        assert_eq!(few.iter().filter(|g| g.number == 2).count(), 1, "{few:?}");
    }

    #[test]
    fn one_group_binds_nothing() {
        assert_eq!(assign(&[group(0, 64)], 144), None);
        assert_eq!(assign(&[], 4), None);
    }

    #[test]
    fn a_group_counts_its_active_processors() {
        assert_eq!(group(0, 64).processors(), 64);
        assert_eq!(ProcessorGroup { number: 1, mask: 0b1011 }.processors(), 3);
    }

    /// Every Windows machine has a group 0; wine shows one group with every CPU.
    #[cfg(windows)]
    #[test]
    fn windows_lists_its_groups_and_binds_a_thread_to_one() {
        let groups = active_groups();
        println!("{groups:?}");
        assert_eq!(groups.first().map(|g| g.number), Some(0));
        let processors: usize = groups.iter().map(ProcessorGroup::processors).sum();
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        assert!(processors >= cpus, "{processors} processors in groups, {cpus} for std");
        let first = groups[0];
        std::thread::spawn(move || first.bind_current_thread()).join().unwrap().expect("bound");
    }

    /// A machine of 64 + 64 + 16 logical processors (and a group with none
    /// active), as `GetLogicalProcessorInformationEx` would describe it.
    #[cfg(windows)]
    #[test]
    fn windows_groups_are_read_past_the_first() {
        use std::mem::offset_of;
        use windows_sys::Win32::System::SystemInformation::{
            GROUP_RELATIONSHIP, PROCESSOR_GROUP_INFO, RelationGroup,
            SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX,
        };
        let masks = [usize::MAX, usize::MAX, 0xFFFF, 0];
        let relationship = offset_of!(SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX, Anonymous);
        let active = relationship + offset_of!(GROUP_RELATIONSHIP, ActiveGroupCount);
        let first = relationship + offset_of!(GROUP_RELATIONSHIP, GroupInfo);
        let mut bytes = vec![0u8; first + masks.len() * size_of::<PROCESSOR_GROUP_INFO>()];
        bytes[..4].copy_from_slice(&RelationGroup.to_ne_bytes());
        bytes[active..active + 2].copy_from_slice(&(masks.len() as u16).to_ne_bytes());
        for (i, mask) in masks.iter().enumerate() {
            let at = first
                + i * size_of::<PROCESSOR_GROUP_INFO>()
                + offset_of!(PROCESSOR_GROUP_INFO, ActiveProcessorMask);
            bytes[at..at + size_of::<usize>()].copy_from_slice(&mask.to_ne_bytes());
        }
        let groups = system::parse(&bytes).expect("a group record");
        assert_eq!(groups, [group(0, 64), group(1, 64), group(2, 16)]);
        let assigned = assign(&groups, 144).expect("bound");
        assert_eq!(assigned.iter().filter(|g| g.number == 2).count(), 16);
        assert_eq!(system::parse(&bytes[..bytes.len() - 40]), None, "cut short");
    }

    #[cfg(not(windows))]
    #[test]
    fn other_systems_have_no_groups() {
        assert!(active_groups().is_empty());
        assert!(group(0, 4).bind_current_thread().is_err());
    }
}
