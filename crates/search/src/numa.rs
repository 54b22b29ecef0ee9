//! NUMA: which CPUs each memory node has, which node each search thread runs
//! on, and pinning a thread to its node's CPUs.
//!
//! On a machine with several memory nodes (a multi-socket server, or a
//! chiplet CPU set up as several nodes) memory attached to another node costs
//! more to reach. A search thread touches its own stack, histories and
//! accumulators at every node and the network's weights at every evaluation,
//! so the pool pins each thread to the CPUs of one node (threads spread over
//! the nodes in proportion to their CPUs) before the thread allocates
//! anything, and gives each node its own copy of the network, made by a thread
//! of that node (`NumaNodes::network_for`). On a machine with one node, the
//! default policy pins nothing: the operating system schedules the threads as
//! it likes.
//!
//! The policy is the UCI option `NumaPolicy`: `auto` (pin where the machine
//! has more than one node), `none`, or the nodes written out, `0-3:4-7` (CPU
//! lists as Linux writes them, nodes separated by `:`), which also serves to
//! try the pinning on a machine with one node. Pinning uses Linux's
//! `sched_setaffinity`; elsewhere the policy is accepted and nothing is pinned.

use crate::sync::Mutex;
use eval::nnue::Network;
use std::fmt;
use std::sync::Arc;

/// The NUMA nodes threads are spread over, each the list of its CPUs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    numa_nodes: Vec<Vec<usize>>,
}

impl Topology {
    /// The nodes as given: each a non-empty list of CPUs. `None` if there is
    /// no node or a node has no CPU.
    pub fn new(numa_nodes: Vec<Vec<usize>>) -> Option<Topology> {
        if numa_nodes.is_empty() || numa_nodes.iter().any(Vec::is_empty) {
            return None;
        }
        Some(Topology { numa_nodes })
    }

    /// The machine's nodes as Linux lists them in
    /// `/sys/devices/system/node/node*/cpulist`, restricted to the CPUs this
    /// process may run on (nodes left without a CPU dropped). `None` where
    /// the system does not say (or has no node this process may use).
    pub fn detect() -> Option<Topology> {
        let mut numa_nodes = Vec::new();
        for entry in std::fs::read_dir("/sys/devices/system/node").ok()?.flatten() {
            let name = entry.file_name();
            let Some(index) = name.to_str().and_then(|n| n.strip_prefix("node")) else {
                continue;
            };
            let Ok(index) = index.parse::<usize>() else { continue };
            let text = std::fs::read_to_string(entry.path().join("cpulist")).ok()?;
            // A node with memory and no CPU (CXL memory, say) has an empty list.
            numa_nodes.push((index, parse_cpu_list(&text).unwrap_or_default()));
        }
        numa_nodes.sort_unstable();
        Topology::new(numa_nodes.into_iter().map(|(_, cpus)| cpus).collect())?.allowed()
    }

    /// This topology without the CPUs this process may not run on; `None`
    /// when no node keeps a CPU. Unchanged where the system does not say.
    pub fn allowed(self) -> Option<Topology> {
        let Some(allowed) = affinity::allowed_cpus() else { return Some(self) };
        let numa_nodes = self
            .numa_nodes
            .into_iter()
            .map(|cpus| cpus.into_iter().filter(|c| allowed.contains(c)).collect::<Vec<_>>())
            .filter(|cpus| !cpus.is_empty())
            .collect();
        Topology::new(numa_nodes)
    }

    /// The number of nodes.
    pub fn numa_nodes(&self) -> usize {
        self.numa_nodes.len()
    }

    /// The CPUs of `numa_node`.
    pub fn cpus(&self, numa_node: usize) -> &[usize] {
        &self.numa_nodes[numa_node]
    }

    /// The node of each of `threads` search threads: each thread goes to the
    /// node with the fewest threads per CPU after it joins (the lowest index
    /// on a tie), so threads spread in proportion to the nodes' CPUs.
    pub fn assign(&self, threads: usize) -> Vec<usize> {
        let sizes: Vec<usize> = self.numa_nodes.iter().map(Vec::len).collect();
        crate::spread::in_proportion(&sizes, threads)
    }
}

impl fmt::Display for Topology {
    /// The nodes as `NumaPolicy` takes them: `0-3:4-7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cpus) in self.numa_nodes.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            write_cpu_list(f, cpus)?;
        }
        Ok(())
    }
}

/// How the pool pins its threads (the UCI option `NumaPolicy`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NumaPolicy {
    /// Pin where the machine has more than one node.
    #[default]
    Auto,
    /// Never pin.
    None,
    /// Pin to these nodes, whatever the machine says.
    Custom(Topology),
}

impl NumaPolicy {
    /// Reads `auto`, `none` (any case) or nodes such as `0-3:4-7`.
    pub fn parse(text: &str) -> Result<NumaPolicy, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("auto") {
            return Ok(NumaPolicy::Auto);
        }
        if text.eq_ignore_ascii_case("none") {
            return Ok(NumaPolicy::None);
        }
        let topology = text
            .split(':')
            .map(|numa_node| parse_cpu_list(numa_node).filter(|cpus| !cpus.is_empty()))
            .collect::<Option<Vec<_>>>()
            .and_then(Topology::new);
        topology.map(NumaPolicy::Custom).ok_or_else(|| {
            format!(
                "NumaPolicy {text:?}: expected auto, none, or CPU lists separated by ':' such as 0-3:4-7"
            )
        })
    }

    /// The nodes to pin to, or `None` to pin nothing. `Auto` reads the
    /// machine's nodes each time it is asked (when threads start).
    pub fn topology(&self) -> Option<Topology> {
        match self {
            NumaPolicy::Auto => Topology::detect().filter(|t| t.numa_nodes() > 1),
            NumaPolicy::None => None,
            NumaPolicy::Custom(topology) => topology.clone().allowed(),
        }
    }
}

impl fmt::Display for NumaPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumaPolicy::Auto => f.write_str("auto"),
            NumaPolicy::None => f.write_str("none"),
            NumaPolicy::Custom(topology) => topology.fmt(f),
        }
    }
}

/// The pool's threads on the NUMA nodes: the policy, where each thread went,
/// and each node's copy of the network. Each has its own lock, taken when
/// threads start, when a pinned thread starts a search with a network it has
/// not copied yet, and when the policy or the network changes: never inside a
/// search.
#[derive(Default)]
pub(crate) struct NumaNodes {
    /// How threads are pinned (applied when threads start).
    policy: Mutex<NumaPolicy>,
    /// The node each thread was pinned to (`None`: not pinned).
    pinned: Mutex<Vec<Option<usize>>>,
    /// Per node in use, its copy of the network (see [`NumaNodes::network_for`]).
    copies: Mutex<Vec<Option<NodeNetwork>>>,
}

/// A NUMA node's copy of the pool's network.
#[derive(Clone)]
pub(crate) struct NodeNetwork {
    /// The network it copies (a copy of an older network is made anew).
    source: Arc<Network>,
    copy: Arc<Network>,
}

impl NumaNodes {
    /// The nodes the policy pins threads to, read now (`None`: pin nothing).
    pub fn topology(&self) -> Option<Topology> {
        self.policy.lock().topology()
    }

    /// Makes `policy` the policy for the threads started from now on, and
    /// returns the old one. The nodes' copies of the network are forgotten:
    /// node numbers may mean other CPUs now.
    pub fn set_policy(&self, policy: NumaPolicy) -> NumaPolicy {
        let old = std::mem::replace(&mut *self.policy.lock(), policy);
        self.forget_copies();
        old
    }

    /// Records the node each thread of a new set was pinned to.
    pub fn set_pinned(&self, pinned: Vec<Option<usize>>) {
        *self.pinned.lock() = pinned;
    }

    /// The node each thread is pinned to (`None`: not pinned).
    pub fn pinned(&self) -> Vec<Option<usize>> {
        self.pinned.lock().clone()
    }

    /// Forgets every node's copy of the network (a new network is copied
    /// anew when next asked for).
    pub fn forget_copies(&self) {
        self.copies.lock().clear();
    }

    /// The network a thread pinned to `numa_node` evaluates `source` with:
    /// `source` itself for an unpinned thread, else the node's own copy of it,
    /// made by the first thread of the node that asks (so its pages are first
    /// touched, and placed, on that node) and shared by the node's threads.
    /// `cached` is the thread's own note of its node's copy: while the network
    /// stays the same, the thread finds its copy there without a lock.
    pub fn network_for(
        &self,
        source: &Arc<Network>,
        numa_node: Option<usize>,
        cached: &mut Option<NodeNetwork>,
    ) -> Arc<Network> {
        let Some(numa_node) = numa_node else { return Arc::clone(source) };
        if let Some(known) = cached.as_ref().filter(|c| Arc::ptr_eq(&c.source, source)) {
            return Arc::clone(&known.copy);
        }
        let mut copies = self.copies.lock();
        if copies.len() <= numa_node {
            copies.resize(numa_node + 1, None);
        }
        let copy = match &copies[numa_node] {
            Some(copy) if Arc::ptr_eq(&copy.source, source) => copy.clone(),
            _ => {
                let copy: Arc<Network> = Arc::from(source.boxed_copy());
                let copy = NodeNetwork { source: Arc::clone(source), copy };
                copies[numa_node] = Some(copy.clone());
                copy
            }
        };
        let network = Arc::clone(&copy.copy);
        *cached = Some(copy);
        network
    }
}

/// Which threads first touch the transposition table for `threads` search threads
/// pinned to the nodes of `topology` (`None`: nothing is pinned).
///
/// Unpinned, one thread per CPU the process may use, placed by the system. Pinned,
/// one thread per CPU of every node that search threads are pinned to, each
/// pinned to its node's CPUs: the table is then spread over the nodes the search
/// runs on, in proportion to their CPUs (all of the machine's nodes once there
/// are as many search threads as nodes), and placed on a node of its own when
/// the search runs on one.
pub fn table_placement(topology: Option<&Topology>, threads: usize) -> tt::Placement {
    let Some(topology) = topology else { return tt::Placement::every_cpu() };
    let mut numa_nodes = topology.assign(threads.max(1));
    numa_nodes.sort_unstable();
    numa_nodes.dedup();
    let cpus = numa_nodes
        .iter()
        .flat_map(|&numa_node| {
            topology.cpus(numa_node).iter().map(move |_| topology.cpus(numa_node).to_vec())
        })
        .collect();
    tt::Placement::pinned(cpus, bind_current_thread)
}

/// Reads a CPU list as Linux writes it: `0-3,8,10-11` (an empty or
/// whitespace-only text is the empty list). `None` if it is malformed.
pub fn parse_cpu_list(text: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.trim().is_empty()) {
        let (first, last): (usize, usize) = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let cpu = part.trim().parse().ok()?;
                (cpu, cpu)
            }
        };
        if first > last || last >= affinity::MAX_CPUS {
            return None;
        }
        cpus.extend(first..=last);
    }
    cpus.sort_unstable();
    cpus.dedup();
    Some(cpus)
}

/// Writes `cpus` (sorted) as a CPU list with ranges: `0-3,8`.
fn write_cpu_list(f: &mut fmt::Formatter<'_>, cpus: &[usize]) -> fmt::Result {
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        if i > 0 {
            f.write_str(",")?;
        }
        if j > i {
            write!(f, "{}-{}", cpus[i], cpus[j])?;
        } else {
            write!(f, "{}", cpus[i])?;
        }
        i = j + 1;
    }
    Ok(())
}

pub use affinity::bind_current_thread;

#[cfg(target_os = "linux")]
mod affinity {
    //! The thread's CPU mask through `sched_getaffinity` / `sched_setaffinity`.
    //! std has no affinity API, so these are the crate's only foreign calls.

    use std::mem::{MaybeUninit, size_of};

    /// The most CPUs a mask holds (glibc's `CPU_SETSIZE`).
    pub const MAX_CPUS: usize = libc::CPU_SETSIZE as usize;

    /// The CPUs the calling thread may run on; `None` if the system refuses to say.
    pub fn allowed_cpus() -> Option<Vec<usize>> {
        let mut set = MaybeUninit::<libc::cpu_set_t>::zeroed();
        // SAFETY: `set` is a writable `cpu_set_t` of the size passed; pid 0 is
        // the calling thread. The call only writes into `set`.
        let rc =
            unsafe { libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), set.as_mut_ptr()) };
        if rc != 0 {
            return None;
        }
        // SAFETY: an all-zero `cpu_set_t` is a valid (empty) mask, and the call
        // above succeeded, so `set` holds the thread's mask.
        let set = unsafe { set.assume_init() };
        // SAFETY: `CPU_ISSET` reads one bit of `set`; every index is below the mask's size.
        Some((0..MAX_CPUS).filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) }).collect())
    }

    /// Pins the calling thread to `cpus` (those at or above `MAX_CPUS` are
    /// ignored). An error (no CPU left, or the system refuses) leaves the
    /// thread as it was.
    pub fn bind_current_thread(cpus: &[usize]) -> std::io::Result<()> {
        // SAFETY: an all-zero `cpu_set_t` is the empty mask (what `CPU_ZERO` makes).
        let mut set = unsafe { MaybeUninit::<libc::cpu_set_t>::zeroed().assume_init() };
        for &cpu in cpus.iter().filter(|&&cpu| cpu < MAX_CPUS) {
            // SAFETY: `CPU_SET` writes one bit of `set`, and `cpu` is below its size.
            unsafe { libc::CPU_SET(cpu, &mut set) };
        }
        // SAFETY: `set` is a valid mask of the size passed; pid 0 is the calling
        // thread; the call only reads `set`.
        let rc = unsafe { libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set) };
        if rc == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
    }
}

#[cfg(not(target_os = "linux"))]
mod affinity {
    //! Elsewhere nothing is pinned.

    /// The most CPUs a CPU list may name.
    pub const MAX_CPUS: usize = 1024;

    /// Not known here.
    pub fn allowed_cpus() -> Option<Vec<usize>> {
        None
    }

    /// Pinning is not supported here: always an error.
    pub fn bind_current_thread(_cpus: &[usize]) -> std::io::Result<()> {
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "no thread pinning on this system",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_numa_node_gets_its_own_copy_of_the_network() {
        let numa = NumaNodes::default();
        let source = eval::nnue::embedded();
        let copy = |numa_node, cached: &mut Option<NodeNetwork>| {
            numa.network_for(&source, numa_node, cached)
        };
        assert!(Arc::ptr_eq(&copy(None, &mut None), &source), "an unpinned thread copies nothing");
        let (mut noted0, mut noted1) = (None, None);
        let node0 = copy(Some(0), &mut noted0);
        let node1 = copy(Some(1), &mut noted1);
        assert!(Arc::ptr_eq(&node0, &copy(Some(0), &mut None)), "one copy per node");
        assert!(Arc::ptr_eq(&node0, &copy(Some(0), &mut noted0)), "the thread's note is its copy");
        assert!(!Arc::ptr_eq(&node0, &node1) && !Arc::ptr_eq(&node0, &source));
        assert!(*node0 == *source && *node1 == *source);
        // A new network: the nodes copy it, not the old one, whatever a thread noted.
        numa.forget_copies();
        let fresh_source: Arc<Network> = Arc::from(eval::nnue::EMBEDDED.boxed_copy());
        let fresh = numa.network_for(&fresh_source, Some(0), &mut noted0);
        assert!(!Arc::ptr_eq(&fresh, &node0));
        assert!(Arc::ptr_eq(&fresh, &numa.network_for(&fresh_source, Some(0), &mut None)));
        assert!(Arc::ptr_eq(&fresh, &noted0.expect("noted").copy));
    }

    #[test]
    fn cpu_lists_read_as_linux_writes_them() {
        assert_eq!(parse_cpu_list("0-3,8,10-11\n"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_cpu_list("5"), Some(vec![5]));
        assert_eq!(parse_cpu_list(""), Some(vec![]));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list("a"), None);
        assert_eq!(parse_cpu_list("1-"), None);
        assert_eq!(parse_cpu_list("100000"), None);
    }

    #[test]
    fn policies_read_and_print_back() {
        for text in ["auto", "none", "0-3:4-7", "0,2,4-5:1"] {
            assert_eq!(NumaPolicy::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(NumaPolicy::parse("AUTO"), Ok(NumaPolicy::Auto));
        let custom = NumaPolicy::parse("4-7:0-3").unwrap();
        let NumaPolicy::Custom(topology) = custom else { panic!("not custom") };
        assert_eq!(
            (topology.numa_nodes(), topology.cpus(0), topology.cpus(1)),
            (2, &[4, 5, 6, 7][..], &[0, 1, 2, 3][..])
        );
        for bad in ["", "0-3:", ":1", "x", "0-3;4"] {
            assert!(NumaPolicy::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn threads_spread_over_nodes_by_their_cpus() {
        let even = Topology::new(vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]).unwrap();
        assert_eq!(even.assign(5), [0, 1, 0, 1, 0]);
        // One node with three times the CPUs of the other gets three threads in four.
        let uneven = Topology::new(vec![vec![0], vec![1, 2, 3]]).unwrap();
        let numa_nodes = uneven.assign(8);
        assert_eq!(numa_nodes.iter().filter(|&&n| n == 1).count(), 6, "{numa_nodes:?}");
        assert_eq!(Topology::new(vec![vec![0]]).unwrap().assign(3), [0, 0, 0]);
    }

    #[test]
    fn the_table_is_touched_on_every_cpu_of_the_nodes_the_search_uses() {
        let topology = Topology::new(vec![vec![0, 1, 2], vec![3, 4]]).unwrap();
        assert_eq!(table_placement(None, 4), tt::Placement::every_cpu());
        let node0 = vec![0, 1, 2];
        let node1 = vec![3, 4];
        let one_node = tt::Placement::pinned(vec![node0.clone(); 3], bind_current_thread);
        assert_eq!(table_placement(Some(&topology), 1), one_node);
        let both = vec![node0.clone(), node0.clone(), node0, node1.clone(), node1];
        let both = tt::Placement::pinned(both, bind_current_thread);
        assert_eq!(table_placement(Some(&topology), 2), both);
        assert_eq!(table_placement(Some(&topology), 64), both);
    }

    #[test]
    fn a_node_without_cpus_is_no_node() {
        assert_eq!(Topology::new(vec![]), None);
        assert_eq!(Topology::new(vec![vec![0], vec![]]), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pinned_thread_runs_only_on_its_cpus() {
        let allowed = affinity::allowed_cpus().expect("the mask of this process");
        let first = allowed[0];
        let after = std::thread::spawn(move || {
            bind_current_thread(&[first]).expect("pinning to an allowed CPU");
            affinity::allowed_cpus()
        })
        .join()
        .unwrap();
        assert_eq!(after, Some(vec![first]));
        // The test thread itself was not touched.
        assert_eq!(affinity::allowed_cpus(), Some(allowed));
    }
}
