//! The machine a measurement ran on, as far as the system says: the CPU's
//! model, its logical CPUs and physical cores, whether SMT is on, and its NUMA
//! nodes (the lines `tessera speedtest` starts with).
//!
//! Linux says all of it (`/proc/cpuinfo`, `/sys/devices/system/cpu`; the NUMA
//! nodes as the search's pool reads them, [`search::numa::Topology`]); macOS
//! its model and cores (`sysctl`); elsewhere the logical CPUs are known, and
//! on x86-64 the model (`cpuid`). What the system does not say is printed as
//! unknown: nothing here fails.

use search::numa::{Topology, parse_cpu_list};
use std::collections::BTreeSet;

/// What is known of the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// The CPU's model name.
    pub model: Option<String>,
    /// The logical CPUs this process may use ([`std::thread::available_parallelism`]).
    pub available: usize,
    /// The logical CPUs online.
    pub online: Option<usize>,
    /// The physical cores online.
    pub cores: Option<usize>,
    /// Whether SMT (hyper-threading) is on.
    pub smt: Option<bool>,
    /// The NUMA nodes, restricted to the CPUs this process may use.
    pub numa: Option<Topology>,
}

impl Machine {
    /// Reads what the system says now.
    pub fn detect() -> Machine {
        let (online, cores) = linux_cpus().map_or_else(
            || (sysctl("hw.logicalcpu").and_then(|n| n.parse().ok()), sysctl_cores()),
            |(online, cores)| (Some(online), cores),
        );
        let smt_file = std::fs::read_to_string("/sys/devices/system/cpu/smt/active").ok();
        let smt = match smt_file.as_deref().map(str::trim) {
            Some("1") => Some(true),
            Some("0") => Some(false),
            _ => online.zip(cores).map(|(online, cores)| online > cores),
        };
        Machine {
            model: model(),
            available: std::thread::available_parallelism().map_or(1, usize::from),
            online,
            cores,
            smt,
            numa: Topology::detect(),
        }
    }

    /// The lines that describe it:
    ///
    /// ```text
    /// CPU: AMD EPYC 7763 64-Core Processor
    /// logical CPUs: 16 (of 128 online); physical cores: 64; SMT: on
    /// NUMA nodes: 1 (CPUs 0-15)
    /// ```
    pub fn lines(&self) -> Vec<String> {
        let unknown = || "unknown".to_string();
        let mut logical = self.available.to_string();
        if let Some(online) = self.online.filter(|&n| n != self.available) {
            logical += &format!(" (of {online} online)");
        }
        let cores = self.cores.map_or_else(unknown, |n| n.to_string());
        let smt = self.smt.map_or_else(unknown, |on| if on { "on" } else { "off" }.to_string());
        let numa =
            self.numa.as_ref().map_or_else(unknown, |t| format!("{} (CPUs {t})", t.numa_nodes()));
        vec![
            format!("CPU: {}", self.model.clone().unwrap_or_else(unknown)),
            format!("logical CPUs: {logical}; physical cores: {cores}; SMT: {smt}"),
            format!("NUMA nodes: {numa}"),
        ]
    }
}

/// The CPU's model name: from `/proc/cpuinfo` on Linux, `sysctl` on macOS,
/// `cpuid` on x86-64.
fn model() -> Option<String> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok();
    cpuinfo
        .as_deref()
        .and_then(cpuinfo_model)
        .or_else(|| sysctl("machdep.cpu.brand_string"))
        .or_else(cpuid_brand)
}

/// The model in `/proc/cpuinfo`: the first `model name` (x86, some ARM),
/// else `Model` (Raspberry Pi), `Hardware`, `cpu model` (MIPS) or `cpu` (POWER).
fn cpuinfo_model(text: &str) -> Option<String> {
    ["model name", "Model", "Hardware", "cpu model", "cpu"].iter().find_map(|key| {
        text.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            let value = value.trim();
            (name.trim() == *key && !value.is_empty()).then(|| value.to_string())
        })
    })
}

/// The online CPUs and, where each says which core it is on, the physical
/// cores (the distinct sets of CPUs that share a core); `None` where
/// `/sys/devices/system/cpu` does not say.
fn linux_cpus() -> Option<(usize, Option<usize>)> {
    let cpu = |path: &str| std::fs::read_to_string(format!("/sys/devices/system/cpu/{path}"));
    let online = parse_cpu_list(&cpu("online").ok()?)?;
    let cores: Option<BTreeSet<Vec<usize>>> = online
        .iter()
        .map(|n| {
            let siblings = cpu(&format!("cpu{n}/topology/core_cpus_list"))
                .or_else(|_| cpu(&format!("cpu{n}/topology/thread_siblings_list")));
            parse_cpu_list(&siblings.ok()?)
        })
        .collect();
    (!online.is_empty()).then(|| (online.len(), cores.map(|c| c.len()).filter(|&n| n > 0)))
}

/// The physical cores as macOS's `sysctl` says.
fn sysctl_cores() -> Option<usize> {
    sysctl("hw.physicalcpu").and_then(|n| n.parse().ok())
}

/// `sysctl -n name` on macOS; `None` elsewhere or when it fails.
fn sysctl(name: &str) -> Option<String> {
    if !cfg!(target_os = "macos") {
        return None;
    }
    let out = std::process::Command::new("sysctl").args(["-n", name]).output().ok()?;
    let value = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !value.is_empty()).then_some(value)
}

/// The processor brand string of `cpuid` (leaves `0x8000_0002` to `0x8000_0004`).
#[cfg(target_arch = "x86_64")]
fn cpuid_brand() -> Option<String> {
    use std::arch::x86_64::__cpuid;
    if __cpuid(0x8000_0000).eax < 0x8000_0004 {
        return None;
    }
    let bytes: Vec<u8> = (0x8000_0002..=0x8000_0004u32)
        .flat_map(|leaf| {
            let r = __cpuid(leaf);
            [r.eax, r.ebx, r.ecx, r.edx].into_iter().flat_map(u32::to_le_bytes)
        })
        .collect();
    let brand = String::from_utf8_lossy(&bytes).trim_matches(['\0', ' ']).to_string();
    (!brand.is_empty()).then_some(brand)
}

/// No `cpuid` here.
#[cfg(not(target_arch = "x86_64"))]
fn cpuid_brand() -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_read_from_cpuinfo_as_each_architecture_writes_it() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\n\
                   model name\t: AMD EPYC 7763 64-Core Processor\n";
        assert_eq!(cpuinfo_model(x86).as_deref(), Some("AMD EPYC 7763 64-Core Processor"));
        let pi = "processor\t: 0\nBogoMIPS\t: 108.00\n\nHardware\t: BCM2835\n\
                  Model\t\t: Raspberry Pi 4 Model B Rev 1.4\n";
        assert_eq!(cpuinfo_model(pi).as_deref(), Some("Raspberry Pi 4 Model B Rev 1.4"));
        assert_eq!(cpuinfo_model("processor\t: 0\nCPU part\t: 0xd0c\n"), None);
    }

    #[test]
    fn what_is_not_known_is_said_so() {
        let machine = Machine {
            model: None,
            available: 4,
            online: Some(8),
            cores: None,
            smt: None,
            numa: None,
        };
        assert_eq!(
            machine.lines(),
            [
                "CPU: unknown",
                "logical CPUs: 4 (of 8 online); physical cores: unknown; SMT: unknown",
                "NUMA nodes: unknown",
            ]
        );
        let numa = Topology::new(vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        let machine = Machine {
            model: Some("X".into()),
            available: 8,
            online: Some(8),
            cores: Some(4),
            smt: Some(true),
            numa,
        };
        assert_eq!(
            machine.lines(),
            [
                "CPU: X",
                "logical CPUs: 8; physical cores: 4; SMT: on",
                "NUMA nodes: 2 (CPUs 0-3:4-7)",
            ]
        );
    }

    #[test]
    fn this_machine_is_described() {
        let machine = Machine::detect();
        assert!(machine.available >= 1);
        if cfg!(target_os = "linux") {
            assert!(machine.online.is_some_and(|n| n >= machine.available), "{machine:?}");
            assert!(machine.cores.is_some() && machine.smt.is_some(), "{machine:?}");
        }
        assert_eq!(machine.lines().len(), 3);
    }
}
