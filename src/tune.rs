//! `tessera tune`: Texel tuning of the evaluation weights.
//!
//! Loads labelled positions (`FEN | result`, as `tessera datagen` writes them),
//! traces each one once into the sparse coefficients of the evaluation, fits
//! the logistic scale `K` on the starting weights, then minimises the mean
//! squared error between results and `sigmoid(K · eval / 400)` over all
//! weights with full-batch Adam, and writes the rounded weights as
//! `crates/eval/src/weights.rs`. See `docs/tuning.md`.

mod data;
mod model;
mod writer;

use data::Dataset;
use eval::S;
use eval::layout::{MATERIAL, NUM_WEIGHTS, TERMS};
use std::process::ExitCode;
use std::time::Instant;
use tessera::datagen::{flag, parse_flags};

/// Where the tuned weights go by default.
pub const DEFAULT_OUT: &str = "crates/eval/src/weights.rs";

/// Runs `tessera tune`.
pub fn run(args: &[String]) -> ExitCode {
    match run_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            eprintln!(
                "usage: tessera tune --data FILE [--epochs E] [--out PATH] [--k K] [--lr LR] \
                 [--report N] [--threads T] [--validation F]"
            );
            ExitCode::FAILURE
        }
    }
}

fn run_inner(args: &[String]) -> Result<(), String> {
    let flags = parse_flags(
        args,
        &["data", "epochs", "out", "k", "lr", "report", "threads", "validation"],
    )?;
    let path = flags.get("data").ok_or("--data FILE is required")?.clone();
    let epochs = flag(&flags, "epochs", 1000usize)?;
    let out = flag(&flags, "out", DEFAULT_OUT.to_string())?;
    let lr = flag(&flags, "lr", 2.0f64)?;
    let report = flag(&flags, "report", 25usize)?.max(1);
    let threads = flag(&flags, "threads", 1usize)?.clamp(1, 256);
    let validation = flag(&flags, "validation", 0.0f64)?;
    if !(0.0..0.9).contains(&validation) {
        return Err("--validation must be a fraction in 0..0.9".to_string());
    }
    let fixed_k =
        flags.get("k").map(|k| k.parse::<f64>()).transpose().map_err(|_| "bad value for --k")?;
    if !(lr > 0.0 && lr.is_finite()) {
        return Err("--lr must be positive".to_string());
    }

    let start = Instant::now();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let mut data = load(&text, threads);
    drop(text);
    // The last lines are whole games (datagen writes games in order): hold them out.
    let held_out = data.split_off(data.len() - (data.len() as f64 * validation) as usize);
    if data.is_empty() {
        return Err(format!("no positions in '{path}'"));
    }
    let load_time = start.elapsed().as_secs_f64();
    if !held_out.is_empty() {
        eprintln!("tune: holding out the last {} positions for validation", held_out.len());
    }
    eprintln!(
        "tune: {} training positions, {} coefficients ({:.1} per position, {:.0} MB) \
         loaded in {load_time:.2} s",
        data.len(),
        data.terms.len(),
        data.terms.len() as f64 / data.len() as f64,
        (data.terms.len() * 4 + data.entries.len() * std::mem::size_of::<data::Entry>()) as f64
            / 1e6,
    );

    let mut params: Vec<f64> =
        eval::WEIGHTS.iter().flat_map(|w| [f64::from(w.mg()), f64::from(w.eg())]).collect();
    let evals = model::evaluations(&data, &params, threads);
    let k = match fixed_k {
        Some(k) => k,
        None => model::fit_k(&data, &evals, 0.05, 10.0),
    };
    let start_loss = model::loss_of_evals(&data, &evals, k);
    let validate =
        |params: &[f64]| (!held_out.is_empty()).then(|| model::loss(&held_out, params, k, threads));
    let start_val = validate(&params);
    eprintln!(
        "tune: K = {k:.4}{}  starting loss {start_loss:.6}",
        if fixed_k.is_some() { " (given)" } else { " (fitted)" }
    );

    let mut adam = model::Adam::new(params.len());
    // The king's material is meaningless (always one each): keep it at 0.
    let king = MATERIAL + board::Piece::King as usize;
    adam.frozen[2 * king] = true;
    adam.frozen[2 * king + 1] = true;
    let tune_start = Instant::now();
    let mut last_loss = start_loss;
    // With a validation set, keep the parameters that did best on it (early stopping).
    let mut best: Option<(f64, usize, Vec<f64>)> = start_val.map(|v| (v, 0, params.clone()));
    for epoch in 0..epochs {
        let (loss, grad) = model::loss_and_gradient(&data, &params, k, threads);
        if !loss.is_finite() {
            return Err(format!("the loss diverged at epoch {epoch}"));
        }
        last_loss = loss;
        let val = validate(&params);
        if let (Some(v), Some((best_v, best_epoch, best_params))) = (val, best.as_mut())
            && v < *best_v
        {
            (*best_v, *best_epoch) = (v, epoch);
            best_params.copy_from_slice(&params);
        }
        if epoch % report == 0 {
            let per_epoch = tune_start.elapsed().as_secs_f64() / epoch.max(1) as f64;
            let val = val.map_or(String::new(), |v| format!("  validation {v:.6}"));
            eprintln!("epoch {epoch:5}  loss {loss:.6}{val}  ({per_epoch:.4} s/epoch)");
        }
        adam.step(&mut params, &grad, model::scheduled_lr(lr, epoch, epochs));
    }
    let tune_time = tune_start.elapsed().as_secs_f64();
    eprintln!(
        "tune: {epochs} epochs in {tune_time:.2} s ({:.4} s/epoch, \
         {:.4} s/epoch per 100k positions); training loss {start_loss:.6} -> {last_loss:.6}",
        tune_time / epochs.max(1) as f64,
        tune_time / epochs.max(1) as f64 * 100_000.0 / data.len() as f64,
    );
    let mut chosen = format!("after {epochs} epochs");
    if let Some((v, epoch, best_params)) = best {
        // The check after the last step is the final parameters themselves.
        let final_val = validate(&params).unwrap_or(f64::INFINITY);
        if v <= final_val {
            eprintln!("tune: best validation loss {v:.6} at epoch {epoch}: keeping those weights");
            chosen = format!("after {epoch} of {epochs} epochs (best validation loss)");
            params = best_params;
        }
    }

    let weights: Vec<S> =
        params.chunks(2).map(|p| S(p[0].round() as i32, p[1].round() as i32)).collect();
    let rounded: Vec<f64> =
        weights.iter().flat_map(|w| [f64::from(w.mg()), f64::from(w.eg())]).collect();
    let final_loss = model::loss(&data, &rounded, k, threads);
    let final_val = validate(&rounded);
    eprintln!("tune: written weights (rounded, {chosen}): training loss {final_loss:.6}");
    if let (Some(a), Some(b)) = (start_val, final_val) {
        eprintln!("tune: validation loss {a:.6} (starting weights) -> {b:.6} (written weights)");
    }
    print_changes(&weights);

    let mut summary = vec![
        format!(
            "Tuned on {} positions from '{}' with Adam (lr {lr});",
            data.len(),
            file_name(&path)
        ),
        format!("weights {chosen}, K = {k:.4},"),
        format!("loss {start_loss:.6} (starting weights) -> {final_loss:.6} (these weights)."),
    ];
    if let (Some(a), Some(b)) = (start_val, final_val) {
        summary.push(format!(
            "Validation loss on {} held-out positions: {a:.6} -> {b:.6}.",
            held_out.len()
        ));
    }
    writer::write_atomically(&out, &writer::render(&weights, &summary))
        .map_err(|e| format!("cannot write '{out}': {e}"))?;
    eprintln!("tune: wrote {out}");
    Ok(())
}

/// The file name of `path` (the summary should not depend on where the data lived).
fn file_name(path: &str) -> &str {
    std::path::Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or(path)
}

/// Parses and traces every line, on `threads` threads (in file order).
fn load(text: &str, threads: usize) -> Dataset {
    let lines: Vec<&str> = text.lines().collect();
    let size = lines.len().div_ceil(threads).max(1);
    let parts: Vec<(Dataset, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(size)
            .map(|chunk| s.spawn(move || data::load_text(&chunk.join("\n"), &eval::WEIGHTS)))
            .collect();
        handles.into_iter().map(|h| h.join().expect("loader thread panicked")).collect()
    });
    let mut data = Dataset::default();
    let mut bad = 0;
    for (part, b) in parts {
        data.append(part);
        bad += b;
    }
    if bad > 0 {
        eprintln!("tune: skipped {bad} malformed line(s)");
    }
    data
}

/// Prints the mean absolute change of each term group.
fn print_changes(weights: &[S]) {
    let mut line = String::from("tune: mean |change| per term (mg/eg):");
    for &(name, offset, len) in TERMS {
        let (mut dm, mut de) = (0.0, 0.0);
        let span = offset..offset + len;
        for (new, old) in weights[span.clone()].iter().zip(&eval::WEIGHTS[span]) {
            dm += f64::from((new.mg() - old.mg()).abs());
            de += f64::from((new.eg() - old.eg()).abs());
        }
        line.push_str(&format!(" {name} {:.1}/{:.1}", dm / len as f64, de / len as f64));
    }
    eprintln!("{line}");
    debug_assert_eq!(weights.len(), NUM_WEIGHTS);
}
