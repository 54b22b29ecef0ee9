//! What a build is: the lines `tessera --version` and the UCI command
//! `compiler` print, so that a report can name exactly the binary it came from.

/// Whether the files this binary was built from differed from its commit.
const SOURCES_MODIFIED: bool = matches!(env!("TESSERA_SOURCES_MODIFIED").as_bytes(), b"true");

/// The build's identity, one field a line: the version and commit (marked
/// when the sources had uncommitted changes), the CPU it targets, the slider
/// attacks, the network code's vector width and kernels, the embedded network
/// and the compiler.
pub fn lines() -> Vec<String> {
    let commit = match crate::VERSION.split_once(' ') {
        Some((_, commit)) if SOURCES_MODIFIED => format!("{commit}, with uncommitted changes"),
        Some((_, commit)) => commit.to_string(),
        None => "unknown (not built in a git checkout)".to_string(),
    };
    let sliders = match board::SLIDER_INDEXING {
        "pext" => "PEXT (BMI2)",
        _ => "magic bitboards",
    };
    let digest = &eval::nnue::EMBEDDED_SHA256[..12];
    vec![
        format!("Tessera {}", crate::VERSION),
        format!("commit: {commit}"),
        format!(
            "cpu: {} (built with target-cpu {})",
            env!("TESSERA_CPU_LEVEL"),
            env!("TESSERA_TARGET_CPU")
        ),
        format!("slider attacks: {sliders}"),
        format!("network code: {}", network_code()),
        format!(
            "network: {}, sha256 {digest}, {}",
            eval::nnue::EMBEDDED_NAME,
            eval::nnue::summary()
        ),
        format!("compiler: {}", env!("TESSERA_RUSTC")),
    ]
}

/// How the network is computed: the vector width and instructions, and the
/// kernels of the accumulator update and the output layer.
pub fn network_code() -> String {
    let (bits, instructions) = eval::nnue::VECTOR_WIDTH;
    format!(
        "{bits}-bit vectors ({instructions}); update {}, output layer {}",
        eval::nnue::simd::UPDATE.how(),
        eval::nnue::simd::DOT.how()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_there_once() {
        let lines = lines();
        let fields: Vec<&str> =
            lines[1..].iter().map(|l| l.split_once(": ").expect("a field").0).collect();
        assert_eq!(
            fields,
            ["commit", "cpu", "slider attacks", "network code", "network", "compiler"]
        );
        assert_eq!(lines[0], format!("Tessera {}", crate::VERSION));
        assert!(lines[6].starts_with("compiler: rustc "), "{}", lines[6]);
    }
}
