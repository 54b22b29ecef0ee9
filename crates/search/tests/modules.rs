//! No circle of imports among the modules of this crate. Each module declared
//! in `lib.rs` is a node (its submodules, `worker/search.rs` say, are part of
//! it), and each `crate::name` path in its files (in `use` declarations or in
//! code, tests included; comments left out) is an edge to the module `name`,
//! or, for a name `lib.rs` re-exports, to the module it comes from. The test
//! fails on a cycle and names it: modules in a cycle can only be read,
//! changed and tested together.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` that are not comments.
fn code(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//"))
}

/// Whether `c` may be part of an identifier.
fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first segment of path `path`.
fn first_segment(path: &str) -> String {
    path.trim().split(|c: char| !is_ident(c)).next().unwrap_or("").to_string()
}

/// The first path segment after each `crate::` in `line` (each name of a
/// `crate::{a::X, b}` group).
fn crate_paths(line: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        if line[..at].chars().next_back().is_some_and(is_ident) {
            continue; // another crate's path, such as `other_crate::x`
        }
        let rest = &line[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                names.extend(group.split(',').map(first_segment));
            }
            None => names.push(first_segment(rest)),
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// The crate's modules (as `lib.rs` declares them) and the module each name
/// that `lib.rs` re-exports comes from.
fn modules(lib: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let mut modules = BTreeSet::new();
    let mut reexports = BTreeMap::new();
    for line in code(lib) {
        let line = line.trim().trim_start_matches("pub ");
        if let Some(name) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
            modules.insert(name.to_string());
        } else if let Some(path) = line.strip_prefix("use ").and_then(|l| l.strip_suffix(';')) {
            let Some((module, names)) = path.split_once("::") else { continue };
            for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
                reexports.insert(name.trim().to_string(), module.to_string());
            }
        }
    }
    (modules, reexports)
}

/// Each module's imports of the crate's other modules.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(SRC);
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let (modules, reexports) = modules(&lib);
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> =
        modules.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src/");
        let top = relative.components().next().expect("a file name");
        let top = top.as_os_str().to_string_lossy();
        let module = top.strip_suffix(".rs").unwrap_or(&top).to_string();
        if module == "lib" {
            continue;
        }
        assert!(modules.contains(&module), "{} is not a module lib.rs declares", file.display());
        let text = std::fs::read_to_string(&file).expect("a source file");
        for name in code(&text).flat_map(crate_paths) {
            let target = if modules.contains(&name) { Some(&name) } else { reexports.get(&name) };
            if let Some(target) = target.filter(|t| **t != module) {
                graph.get_mut(&module).expect("a module").insert(target.clone());
            }
        }
    }
    graph
}

/// A cycle of `graph`, if it has one, as the modules along it.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    /// Depth first from `module`; `path` is the way there, `done` the modules
    /// known to lead to no cycle.
    fn visit(
        graph: &BTreeMap<String, BTreeSet<String>>,
        module: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut cycle = path[at..].to_vec();
            cycle.push(module.to_string());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in &graph[module] {
            if let Some(cycle) = visit(graph, next, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(graph, m, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_itself_through_others() {
    let graph = graph();
    assert!(graph["pool"].contains("worker"), "the graph misses pool.rs's use of worker.rs");
    if let Some(cycle) = cycle(&graph) {
        panic!("a cycle of imports among the modules: {}", cycle.join(" -> "));
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")];
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in edges {
        graph.entry(from.to_string()).or_default().insert(to.to_string());
        graph.entry(to.to_string()).or_default();
    }
    assert_eq!(cycle(&graph), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
    graph.get_mut("c").expect("c").remove("a");
    assert_eq!(cycle(&graph), None);
    assert_eq!(
        crate_paths("use crate::{a::X, b};  crate::c::y(); other_crate::d"),
        ["a", "b", "c"]
    );
}
