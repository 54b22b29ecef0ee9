//! No cycle of imports among the modules of any crate of the workspace (each
//! member of Cargo.toml's `[workspace]`, and this package: its library and its
//! binary are two crates). One test walks every crate's `src/`, so a new crate
//! is checked the day it is added, with nothing to copy into it.
//!
//! The modules are read from the files as the compiler finds them: from each
//! crate root (`lib.rs`, `main.rs`) through its `mod name;` declarations
//! (`#[path]` included), so `nnue/accumulator.rs` is the module
//! `nnue::accumulator`. Each `crate::`, `super::` and `self::` path in a
//! module's file (in `use` declarations, groups over several lines included,
//! and in code, tests included; comments and strings left out) is an import
//! of the module the path leads to; a name that a module re-exports (`pub use
//! accumulator::Accumulator` in `nnue`) leads on to the module it comes from.
//!
//! The children of each module (the top-level modules of a crate, the files of
//! `nnue/`) and the parent's own file (the items it defines) must import each
//! other without a cycle. An import counts for the child that holds the
//! importing file (`worker/search.rs` imports as `worker` does, among the
//! crate's top-level modules); a parent's `mod` declarations and `pub use`
//! re-exports are its map, not imports. A cycle fails the test, named with one
//! import of each step: modules in a cycle can only be read, changed and tested
//! together. Break one by moving what both need into a module below them, not
//! by hiding the import. (What has no path is not seen: a method called on a
//! type whose `impl` block sits in another file, a macro used by its bare name.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A module's path from its crate root (`[]` for the root itself).
type ModPath = Vec<String>;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// A string literal's text (escapes left as written).
    Str(String),
    /// `::`
    Sep,
    Punct(char),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

/// The tokens of Rust source `text` that matter here: identifiers, string
/// literals, `::` and single punctuation; comments, character literals and
/// lifetimes are dropped.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    // The end of the string literal whose opening quote is at `open`, closed by
    // `"` and `hashes` `#`s (raw when `raw`).
    let string_end = |open: usize, raw: bool, hashes: usize, line: &mut usize| {
        let mut j = open + 1;
        while j < chars.len() {
            match chars[j] {
                '\\' if !raw => j += 1,
                '\n' => *line += 1,
                '"' if (1..=hashes).all(|k| at(j + k) == '#') => return j + hashes,
                _ => {}
            }
            j += 1;
        }
        j
    };
    while i < chars.len() {
        let c = chars[i];
        let here = line;
        let mut push = |tok| out.push(Token { tok, line: here });
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            _ if c.is_whitespace() => i += 1,
            '/' if at(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 1;
                    } else if chars[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 1;
                    } else if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            '"' => {
                let end = string_end(i, false, 0, &mut line);
                push(Tok::Str(chars[i + 1..end.min(chars.len())].iter().collect()));
                i = end + 1;
            }
            '\'' if at(i + 1) == '\\' => {
                // An escaped character: '\n', '\'', '\u{..}'.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            }
            '\'' if at(i + 2) == '\'' => i += 3,
            '\'' => {
                // A lifetime or a label.
                i += 1;
                while is_ident(at(i)) {
                    i += 1;
                }
            }
            ':' if at(i + 1) == ':' => {
                push(Tok::Sep);
                i += 2;
            }
            _ if is_ident(c) => {
                let start = i;
                while is_ident(at(i)) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let prefix = matches!(word.as_str(), "b" | "c" | "r" | "br" | "cr");
                if prefix && matches!(at(i), '"' | '#') && (at(i) == '"' || !is_ident(at(i + 1))) {
                    // b"..", r#".."#: a string literal.
                    let raw = word.contains('r');
                    let mut hashes = 0;
                    while at(i) == '#' {
                        hashes += 1;
                        i += 1;
                    }
                    let end = string_end(i, raw, hashes, &mut line);
                    push(Tok::Str(chars[i + 1..end.min(chars.len()) - hashes].iter().collect()));
                    i = end + 1;
                } else if word == "b" && at(i) == '\'' {
                    i += if at(i + 1) == '\\' { 4 } else { 3 };
                    while i < chars.len() && chars[i - 1] != '\'' {
                        i += 1;
                    }
                } else if word == "r" && at(i) == '#' {
                    // A raw identifier: r#type.
                    let start = i + 1;
                    i += 1;
                    while is_ident(at(i)) {
                        i += 1;
                    }
                    push(Tok::Ident(chars[start..i].iter().collect()));
                } else {
                    push(Tok::Ident(word));
                }
            }
            _ => {
                push(Tok::Punct(c));
                i += 1;
            }
        }
    }
    out
}

/// For each token, how many `{` enclose it, and how many of those open an
/// inline module (`mod tests {`), which `super` climbs out of first.
fn depths(tokens: &[Token]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut depth, mut inline) = (0usize, Vec::new());
    for (i, t) in tokens.iter().enumerate() {
        out.push((depth, inline.len()));
        match t.tok {
            Tok::Punct('{') => {
                let opens_module = i >= 2
                    && tokens[i - 2].tok == Tok::Ident("mod".into())
                    && matches!(tokens[i - 1].tok, Tok::Ident(_));
                if opens_module {
                    inline.push(depth);
                }
                depth += 1;
            }
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
    }
    out
}

/// The paths of the use tree (or plain path) that starts at `tokens[*i]`, each
/// with the name it binds (an alias, or its last segment; `a::{self}` binds
/// `a`); `*i` is left after the tree.
fn use_tree(tokens: &[Token], i: &mut usize) -> Vec<(Vec<String>, String)> {
    fn tree(
        tokens: &[Token],
        i: &mut usize,
        mut prefix: Vec<String>,
        out: &mut Vec<(Vec<String>, String)>,
    ) {
        let tok = |i: usize| tokens.get(i).map(|t| &t.tok);
        loop {
            match tok(*i) {
                Some(Tok::Ident(name)) => {
                    *i += 1;
                    if tok(*i) == Some(&Tok::Sep) {
                        prefix.push(name.clone());
                        *i += 1;
                        continue;
                    }
                    let bound = match tok(*i) {
                        Some(Tok::Ident(a)) if a == "as" => {
                            *i += 2;
                            match tok(*i - 1) {
                                Some(Tok::Ident(alias)) => alias.clone(),
                                _ => name.clone(),
                            }
                        }
                        _ if name == "self" => prefix.last().cloned().unwrap_or_default(),
                        _ => name.clone(),
                    };
                    if name != "self" {
                        prefix.push(name.clone());
                    }
                    out.push((prefix, bound));
                }
                Some(Tok::Punct('{')) => {
                    *i += 1;
                    while !matches!(tok(*i), None | Some(Tok::Punct('}'))) {
                        let before = *i;
                        tree(tokens, i, prefix.clone(), out);
                        if tok(*i) == Some(&Tok::Punct(',')) {
                            *i += 1;
                        } else if *i == before {
                            break;
                        }
                    }
                    *i += 1;
                }
                Some(Tok::Punct('*')) => {
                    *i += 1;
                    prefix.push("*".into());
                    out.push((prefix, String::new()));
                }
                // A path in code, such as `crate::f()` or `crate::T::<U>`.
                _ => out.push((prefix, String::new())),
            }
            return;
        }
    }
    let mut out = Vec::new();
    tree(tokens, i, Vec::new(), &mut out);
    out
}

/// One module: its file, its child modules, and the names its file-level
/// `use` declarations bring in (each as the path it names from the crate root).
#[derive(Debug, Default)]
struct Module {
    file: PathBuf,
    tokens: Vec<Token>,
    children: BTreeSet<String>,
    /// `None` for a name from another crate.
    bindings: BTreeMap<String, Option<ModPath>>,
    globs: Vec<ModPath>,
}

/// One crate's modules, from its root file.
struct Crate {
    name: String,
    /// The folder of the root file.
    src: PathBuf,
    modules: BTreeMap<ModPath, Module>,
}

/// Why an import is there: the file, the line and the path as written.
#[derive(Clone, Debug)]
struct Evidence {
    file: PathBuf,
    line: usize,
    path: String,
}

/// Each parent module's siblings and their imports of each other.
type Levels = BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, Evidence>>>;

impl Crate {
    /// The crate whose root file is `root`, with every module its `mod`
    /// declarations reach.
    fn load(name: &str, root: &Path) -> Crate {
        let src = root.parent().expect("a folder").to_path_buf();
        let mut krate = Crate { name: name.to_string(), src, modules: BTreeMap::new() };
        krate.add(Vec::new(), root.to_path_buf(), true);
        let paths: Vec<ModPath> = krate.modules.keys().cloned().collect();
        for path in paths {
            krate.read_uses(&path);
        }
        krate
    }

    /// Adds module `path` from `file` and its submodules; `owns_folder`: its
    /// children are beside it (a crate root, `mod.rs`), not in a folder of its name.
    fn add(&mut self, path: ModPath, file: PathBuf, owns_folder: bool) {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let tokens = tokens(&text);
        let depths = depths(&tokens);
        let here = file.parent().expect("a folder").to_path_buf();
        let folder = if owns_folder {
            here.clone()
        } else {
            here.join(file.file_stem().expect("a file name"))
        };
        let mut children = Vec::new();
        let mut path_attribute = None;
        for (i, t) in tokens.iter().enumerate() {
            let tok = |k: usize| tokens.get(k).map(|t| &t.tok);
            if depths[i].0 != 0 {
                continue;
            }
            match &t.tok {
                Tok::Ident(w) if w == "path" && i > 1 && tok(i - 1) == Some(&Tok::Punct('[')) => {
                    if let Some(Tok::Str(p)) = tok(i + 2) {
                        path_attribute = Some(p.clone());
                    }
                }
                Tok::Ident(w) if w == "mod" => {
                    if let (Some(Tok::Ident(name)), Some(Tok::Punct(';'))) =
                        (tok(i + 1), tok(i + 2))
                    {
                        let child = match path_attribute.take() {
                            Some(p) => (here.join(p), true),
                            None if folder.join(format!("{name}.rs")).exists() => {
                                (folder.join(format!("{name}.rs")), false)
                            }
                            None => (folder.join(name).join("mod.rs"), true),
                        };
                        children.push((name.clone(), child));
                    }
                }
                Tok::Punct(';' | '{' | '}') => path_attribute = None,
                _ => {}
            }
        }
        let module = Module {
            file,
            tokens,
            children: children.iter().map(|(n, _)| n.clone()).collect(),
            ..Module::default()
        };
        self.modules.insert(path.clone(), module);
        for (name, (file, owns_folder)) in children {
            let mut child = path.clone();
            child.push(name);
            self.add(child, file, owns_folder);
        }
    }

    /// The path from the crate root that `segments` (as written in module
    /// `from`, inside `inline` inline modules) names, or `None` for another
    /// crate's path.
    fn absolute(&self, from: &ModPath, inline: usize, segments: &[String]) -> Option<ModPath> {
        let first = segments.first()?;
        let (base, rest): (ModPath, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &segments[1..]),
            "self" => (from.clone(), &segments[1..]),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                let climb = ups.saturating_sub(inline).min(from.len());
                (from[..from.len() - climb].to_vec(), &segments[ups..])
            }
            name if self.modules[from].children.contains(name) => (from.clone(), segments),
            name if self.visible_through_glob(from, name) => (from.clone(), segments),
            _ => return None,
        };
        Some([base.as_slice(), rest].concat())
    }

    /// Whether `name` is a module or import of a module that module `from`
    /// glob-imports (`use super::*`).
    fn visible_through_glob(&self, from: &ModPath, name: &str) -> bool {
        self.modules[from].globs.iter().any(|g| {
            self.resolve(g, 0).is_some_and(|g| {
                let m = &self.modules[&g];
                m.children.contains(name) || m.bindings.contains_key(name)
            })
        })
    }

    /// Records the names module `path`'s file-level `use` declarations bring in.
    fn read_uses(&mut self, path: &ModPath) {
        let module = &self.modules[path];
        let depths = depths(&module.tokens);
        let mut bindings = BTreeMap::new();
        let mut globs = Vec::new();
        let mut i = 0;
        while i < module.tokens.len() {
            let is_use = module.tokens[i].tok == Tok::Ident("use".into());
            i += 1;
            if !is_use || depths[i - 1] != (0, 0) {
                continue;
            }
            for (segments, bound) in use_tree(&module.tokens, &mut i) {
                let target = self.absolute(path, 0, &segments);
                if segments.last().is_some_and(|s| s == "*") {
                    globs.extend(target.map(|t| t[..t.len() - 1].to_vec()));
                } else if !bound.is_empty() {
                    bindings.insert(bound, target);
                }
            }
        }
        let module = self.modules.get_mut(path).expect("a module");
        module.bindings = bindings;
        module.globs = globs;
    }

    /// The module that path `segments` (from the crate root) leads to: through
    /// child modules, and through the names a module imports to where they
    /// come from; `None` where that is another crate.
    fn resolve(&self, segments: &[String], hops: usize) -> Option<ModPath> {
        let mut at = Vec::new();
        for (i, name) in segments.iter().enumerate() {
            let module = &self.modules[&at];
            if module.children.contains(name) {
                at.push(name.clone());
                continue;
            }
            if hops < 16 {
                if let Some(target) = module.bindings.get(name) {
                    let target = target.as_ref()?;
                    return self
                        .resolve(&[target.as_slice(), &segments[i + 1..]].concat(), hops + 1);
                }
                for glob in &module.globs {
                    let Some(g) = self.resolve(glob, hops + 1) else { continue };
                    let m = &self.modules[&g];
                    if m.children.contains(name) || m.bindings.contains_key(name) {
                        return self.resolve(&[g.as_slice(), &segments[i..]].concat(), hops + 1);
                    }
                }
            }
            break;
        }
        Some(at)
    }

    /// Every import between siblings, with one example of each; the files
    /// `waived` are not read.
    fn levels(&self, waived: &[PathBuf]) -> Levels {
        let mut levels = Levels::new();
        for (parent, module) in &self.modules {
            if !module.children.is_empty() {
                let siblings = module.children.iter().map(|c| (c.clone(), BTreeMap::new()));
                let own = (OWN.to_string(), BTreeMap::new());
                levels.insert(parent.clone(), siblings.chain([own]).collect());
            }
        }
        for (from, module) in &self.modules {
            if waived.contains(&module.file) {
                continue;
            }
            let tokens = &module.tokens;
            let depths = depths(tokens);
            let mut i = 0;
            while i < tokens.len() {
                let tok = |k: usize| tokens.get(k).map(|t| &t.tok);
                let start = i;
                let mut reexport = false;
                let paths = match tok(i) {
                    Some(Tok::Ident(w)) if w == "use" => {
                        let back = |k: usize| i.checked_sub(k).and_then(tok);
                        let public = |k: usize| back(k) == Some(&Tok::Ident("pub".into()));
                        reexport = depths[i] == (0, 0)
                            && (public(1) || (back(1) == Some(&Tok::Punct(')')) && public(4)));
                        i += 1;
                        use_tree(tokens, &mut i)
                    }
                    Some(Tok::Ident(_))
                        if tok(i + 1) == Some(&Tok::Sep)
                            && (i == 0 || tok(i - 1) != Some(&Tok::Sep)) =>
                    {
                        use_tree(tokens, &mut i)
                    }
                    _ => {
                        i += 1;
                        continue;
                    }
                };
                i = i.max(start + 1);
                for (segments, _) in paths {
                    let Some(target) = self.absolute(from, depths[start].1, &segments) else {
                        continue;
                    };
                    let Some(target) = self.resolve(&target, 0) else { continue };
                    let common = from.iter().zip(&target).take_while(|(a, b)| a == b).count();
                    let step = match (from.get(common), target.get(common)) {
                        (Some(a), Some(b)) => (a, b),
                        // An item of an ancestor's own file.
                        (Some(a), None) => (a, &OWN.to_string()),
                        // A parent's own code using a child (not re-exporting it).
                        (None, Some(b)) if !reexport => (&OWN.to_string(), b),
                        _ => continue,
                    };
                    let evidence = Evidence {
                        file: module.file.clone(),
                        line: tokens[start].line,
                        path: segments.join("::"),
                    };
                    let siblings = levels.get_mut(&target[..common]).expect("a parent");
                    let to = siblings.get_mut(step.0).expect("a sibling");
                    to.entry(step.1.clone()).or_insert(evidence);
                }
            }
        }
        levels
    }

    /// How a cycle names sibling `name` under `parent`: its path, or the
    /// parent's file for the parent's own items.
    fn display(&self, parent: &ModPath, name: &str) -> String {
        if name == OWN {
            let file = &self.modules[parent].file;
            file.strip_prefix(&self.src).unwrap_or(file).display().to_string()
        } else {
            [parent.as_slice(), &[name.to_string()]].concat().join("::")
        }
    }
}

/// The sibling that stands for a parent module's own items (those its file
/// defines rather than re-exports).
const OWN: &str = "";

/// A graph: each node's successors.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// A cycle of `graph`, if it has one, as the nodes along it, the first again last.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    /// Depth first from `node`; `path` is the way there, `done` the nodes
    /// known to lead to no cycle.
    fn visit(
        graph: &Graph,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(graph, next, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(graph, m, &mut Vec::new(), &mut done))
}

/// The cycles among the siblings of each module of `krate` (the files
/// `waived` not read), each as a message that names it and one import of each
/// step; each module is in one cycle at most, the first found.
fn cycles(krate: &Crate, waived: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for (parent, siblings) in krate.levels(waived) {
        let mut graph: Graph =
            siblings.iter().map(|(m, to)| (m.clone(), to.keys().cloned().collect())).collect();
        while let Some(cycle) = cycle(&graph) {
            let names: Vec<String> = cycle.iter().map(|m| krate.display(&parent, m)).collect();
            let mut message = format!("{}: a cycle of imports: {}", krate.name, names.join(" -> "));
            for step in cycle.windows(2) {
                let e = &siblings[&step[0]][&step[1]];
                let file = e.file.strip_prefix(ROOT).unwrap_or(&e.file);
                message += &format!("\n    {}:{}: {}", file.display(), e.line, e.path);
            }
            found.push(message);
            for m in &cycle {
                graph.remove(m);
            }
            for to in graph.values_mut() {
                to.retain(|m| !cycle.contains(m));
            }
        }
    }
    found
}

/// Every crate of the workspace, by name, with its source folder: the members
/// Cargo.toml lists, then this package.
fn workspace() -> Vec<(String, PathBuf)> {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = ["))
        .expect("a one-line `members = [...]` in Cargo.toml");
    let mut out: Vec<(String, PathBuf)> = members
        .trim_end_matches(']')
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| {
            let name = m.rsplit('/').next().expect("a folder name").to_string();
            (name, Path::new(ROOT).join(m).join("src"))
        })
        .collect();
    out.push(("tessera".to_string(), Path::new(ROOT).join("src")));
    out
}

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

/// The crates of the source folder `src` (its library, its binary), named
/// after `name`, and the files of `src` that no crate's module tree reaches.
fn crates_of(name: &str, src: &Path) -> (Vec<Crate>, Vec<PathBuf>) {
    let mut crates = Vec::new();
    for (root, suffix) in [("lib.rs", ""), ("main.rs", " (main.rs)")] {
        if src.join(root).exists() {
            crates.push(Crate::load(&format!("{name}{suffix}"), &src.join(root)));
        }
    }
    let reached: BTreeSet<PathBuf> =
        crates.iter().flat_map(|c| c.modules.values().map(|m| m.file.clone())).collect();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.retain(|f| !reached.contains(f));
    (crates, files)
}

/// Files whose imports are not read, each with why and what ends its waiver.
/// The test fails once a waiver changes nothing.
const WAIVED: &[(&str, &str)] = &[];

#[test]
fn no_crate_has_a_cycle_of_imports_among_its_modules() {
    let waived: Vec<PathBuf> = WAIVED.iter().map(|(f, _)| Path::new(ROOT).join(f)).collect();
    let mut problems = Vec::new();
    let mut all = BTreeMap::new();
    let mut files = BTreeSet::new();
    for (name, src) in workspace() {
        let (crates, strays) = crates_of(&name, &src);
        assert!(!crates.is_empty(), "{}: no lib.rs or main.rs", src.display());
        for stray in strays {
            problems.push(format!("{name}: {} is in no module tree", stray.display()));
        }
        for krate in crates {
            let found = cycles(&krate, &waived);
            for w in waived.iter().filter(|w| krate.modules.values().any(|m| m.file == **w)) {
                let others: Vec<PathBuf> = waived.iter().filter(|o| o != &w).cloned().collect();
                if cycles(&krate, &others) == found {
                    problems
                        .push(format!("{}: its waiver changes nothing: remove it", w.display()));
                }
            }
            problems.extend(found);
            files.extend(krate.modules.values().map(|m| m.file.clone()));
            all.insert(krate.name.clone(), krate.levels(&[]));
        }
    }
    for w in waived.iter().filter(|w| !files.contains(*w)) {
        problems.push(format!("{}: waived, but no crate has this file", w.display()));
    }
    // The reading sees imports where they are known to be.
    let imports = |krate: &str, parent: &[&str], from: &str, to: &str| {
        let parent: ModPath = parent.iter().map(|s| s.to_string()).collect();
        all[krate][&parent][from].contains_key(to)
    };
    assert!(imports("search", &[], "pool", "worker"), "the reading misses pool.rs's use of worker");
    assert!(imports("eval", &["nnue"], "accumulator", "layout"), "and accumulator.rs's of layout");
    assert!(imports("tessera", &[], "uci", "rng"), "and uci/mod.rs's of rng");
    assert!(imports("tessera", &["uci"], "command", "go"), "and uci/command.rs's of go");
    assert!(imports("search", &["worker"], "aspiration", OWN), "and aspiration.rs's of Worker");
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// A crate written into a temporary folder: `files` are (path under src/, text).
fn fixture(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let src = std::env::temp_dir()
        .join(format!("tessera-modules-{name}-{}", std::process::id()))
        .join("src");
    let _ = std::fs::remove_dir_all(&src);
    for (path, text) in files {
        let path = src.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a temporary folder");
        std::fs::write(path, text).expect("a temporary file");
    }
    src
}

#[test]
fn the_reading_finds_a_cycle_however_it_is_written() {
    // a -> b through a re-export and a group over two lines, b -> c through
    // `super`, c -> a from a test module: a cycle in `outer`.
    let src = fixture(
        "cycle",
        &[
            ("lib.rs", "mod outer;\n"),
            ("outer/mod.rs", "mod a;\nmod b;\nmod c;\npub use b::B;\n"),
            ("outer/a.rs", "use crate::outer::{\n    B,\n};\n// use crate::outer::c::C;\n"),
            ("outer/b.rs", "pub struct B;\nfn f() -> super::c::C { todo!() }\n"),
            (
                "outer/c.rs",
                "pub struct C;\n#[cfg(test)]\nmod tests {\n    use super::super::a;\n}\n",
            ),
        ],
    );
    let krate = Crate::load("fixture", &src.join("lib.rs"));
    let found = cycles(&krate, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with(
        "fixture: a cycle of imports: outer::a -> outer::b -> outer::c -> outer::a\n"
    ));
    assert!(found[0].contains("outer/a.rs:1: crate::outer::B"), "{}", found[0]);
    assert!(found[0].contains("outer/c.rs:4: super::super::a"), "{}", found[0]);

    // Without c's import there is none; and strings and comments are no imports.
    let src = fixture(
        "none",
        &[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "use crate::b::B;\n"),
            (
                "b.rs",
                "pub struct B;\nconst S: &str = \"crate::a::x\";\n/* crate::a */ const C: char = '{';\n",
            ),
        ],
    );
    let krate = Crate::load("fixture", &src.join("lib.rs"));
    assert_eq!(cycles(&krate, &[]), Vec::<String>::new());
    assert!(krate.levels(&[])[&Vec::new()]["a"].contains_key("b"));

    // A parent's own item that a child uses, while the parent's own code uses
    // the child: a cycle; a re-export of the child alone is none.
    let own = |lib: &str| {
        let src = fixture("own", &[("lib.rs", lib), ("a.rs", "pub fn f() -> i32 { crate::X }\n")]);
        cycles(&Crate::load("fixture", &src.join("lib.rs")), &[])
    };
    let found = own("mod a;\npub const X: i32 = 1;\npub fn g() -> i32 { a::f() }\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("fixture: a cycle of imports: lib.rs -> a -> lib.rs\n"));
    assert_eq!(own("mod a;\npub const X: i32 = 1;\npub use a::f;\n"), Vec::<String>::new());
    for name in ["cycle", "none", "own"] {
        let _ = std::fs::remove_dir_all(fixture(name, &[]).parent().expect("a folder"));
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")];
    let mut graph = Graph::new();
    for (from, to) in edges {
        graph.entry(from.to_string()).or_default().insert(to.to_string());
        graph.entry(to.to_string()).or_default();
    }
    assert_eq!(cycle(&graph), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
    graph.get_mut("c").expect("c").remove("a");
    assert_eq!(cycle(&graph), None);
}
