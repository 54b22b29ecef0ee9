//! `tessera-train`: trains the evaluation network and handles its data.
//!
//! ```text
//! tessera-train train [options] DATA...    train a net (see docs/nnue.md)
//! tessera-train quantise --params FILE --out FILE.nnue DATA...   a checkpoint's params -> a net of its size
//! tessera-train stats [--min-ply N] [--max-score S] DATA...
//! tessera-train text --out FILE DATA...  binary games -> text lines
//! tessera-train import-pgn --out FILE.bin --players A,B PGN...   self-play match games -> binary games
//! ```
//!
//! DATA are files or folders of `.bin` or `.bin.xz` games.

use gamedata::write_game;
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use trainer::data::{self, Filter, FilterStats};
use trainer::net::Layout;
use trainer::resume::{self, Snapshot};
use trainer::train::{Config, Start, train};

const USAGE: &str = "\
usage: tessera-train train [--out DIR] [--hidden H] [--output-buckets B] [--factoriser true|false] [--epochs E]
                           [--batch B] [--lr LR] [--final-lr F] [--wd W] [--bucket-wd W] [--lambda L] [--threads T] [--seed S]
                           [--validation-every N] [--min-ply P] [--max-score S] [--init FILE]
                           [--mirror true|false] [--resume true|false] DATA...
       tessera-train quantise --params FILE --out FILE.nnue [--validation-every N] [--min-ply P]
                              [--max-score S] [--threads T] DATA...
       tessera-train stats [--min-ply P] [--max-score S] DATA...
       tessera-train text --out FILE DATA...
       tessera-train import-pgn --out FILE.bin --players NAME,NAME... PGN...";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("train") => run_train(&args[1..]),
        Some("stats") => run_stats(&args[1..]),
        Some("text") => run_text(&args[1..]),
        Some("import-pgn") => run_import_pgn(&args[1..]),
        Some("quantise") => run_quantise(&args[1..]),
        _ => Err("unknown command".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tessera-train: {e}");
            eprintln!("{USAGE}");
            ExitCode::FAILURE
        }
    }
}

/// `--name value` flags (from `known`) and positional arguments.
fn parse(
    args: &[String],
    known: &[&str],
) -> Result<(HashMap<String, String>, Vec<PathBuf>), String> {
    let mut flags = HashMap::new();
    let mut positional = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if let Some(name) = arg.strip_prefix("--") {
            if !known.contains(&name) {
                return Err(format!("unknown option --{name}"));
            }
            let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
            flags.insert(name.to_string(), value.clone());
        } else {
            positional.push(PathBuf::from(arg));
        }
    }
    Ok((flags, positional))
}

fn get<T: std::str::FromStr>(
    flags: &HashMap<String, String>,
    name: &str,
    default: T,
) -> Result<T, String> {
    flags
        .get(name)
        .map_or(Ok(default), |v| v.parse().map_err(|_| format!("bad value '{v}' for --{name}")))
}

fn filter_from(flags: &HashMap<String, String>) -> Result<Filter, String> {
    let d = Filter::default();
    Ok(Filter {
        min_ply: get(flags, "min-ply", d.min_ply)?,
        max_score: get(flags, "max-score", d.max_score)?,
    })
}

fn print_stats(s: &FilterStats) {
    eprintln!(
        "{} games, {} positions: kept {} ({:.1}%), in check {}, noisy move {}, early {}, extreme score {}",
        s.games,
        s.positions,
        s.kept,
        100.0 * s.kept as f64 / s.positions.max(1) as f64,
        s.in_check,
        s.noisy,
        s.early,
        s.extreme
    );
}

fn run_train(args: &[String]) -> Result<(), String> {
    let known = [
        "out",
        "hidden",
        "output-buckets",
        "factoriser",
        "epochs",
        "batch",
        "lr",
        "final-lr",
        "wd",
        "bucket-wd",
        "lambda",
        "threads",
        "seed",
        "validation-every",
        "min-ply",
        "max-score",
        "init",
        "mirror",
        "resume",
    ];
    let (flags, paths) = parse(args, &known)?;
    let d = Config::default();
    let weight_decay = get(&flags, "wd", d.weight_decay)?;
    let config = Config {
        hidden: get(&flags, "hidden", d.hidden)?,
        factorised: get(&flags, "factoriser", d.factorised)?,
        output_buckets: get(&flags, "output-buckets", d.output_buckets)?,
        epochs: get(&flags, "epochs", d.epochs)?,
        batch_size: get(&flags, "batch", d.batch_size)?,
        lr: get(&flags, "lr", d.lr)?,
        final_lr_factor: get(&flags, "final-lr", d.final_lr_factor)?,
        weight_decay,
        bucket_weight_decay: get(&flags, "bucket-wd", weight_decay)?,
        lambda: get(&flags, "lambda", d.lambda)?,
        threads: get(
            &flags,
            "threads",
            std::thread::available_parallelism().map_or(1, |n| n.get()),
        )?,
        seed: get(&flags, "seed", d.seed)?,
    };
    let out = PathBuf::from(get(&flags, "out", "nets-out".to_string())?);
    let validation_every = get(&flags, "validation-every", 50u64)?;
    let mirror = get(&flags, "mirror", true)?;
    let filter = filter_from(&flags)?;
    if !(1..=32).contains(&config.output_buckets) {
        return Err(format!("--output-buckets {}: from 1 to 32", config.output_buckets));
    }
    let layout = config.layout();
    let init = match flags.get("init") {
        Some(path) => match read_params(Path::new(path))? {
            (found, params) if found == layout => Some(params),
            (found, _) => {
                return Err(format!("{path}: a net of {found:?}, not of the {layout:?} asked for"));
            }
        },
        None => None,
    };
    let resume = get(&flags, "resume", false)?;
    if resume && init.is_some() {
        return Err("--resume continues a run where it stopped: not with --init".into());
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let state_path = out.join("resume.state");

    let files = data::data_files(&paths)?;
    if files.is_empty() {
        return Err("no data files given".into());
    }
    let start = Instant::now();
    let mut loaded = data::load(&files, &filter, validation_every, config.threads)?;
    eprintln!("loaded {} files in {:.0} s", files.len(), start.elapsed().as_secs_f64());
    print_stats(&loaded.stats);
    if mirror {
        let mirrored: Vec<_> = loaded.train.iter().map(|s| s.mirrored()).collect();
        loaded.train.extend(mirrored);
        eprintln!("--mirror: each training sample also mirrored a<->h");
    }
    eprintln!(
        "training on {} samples, validating on {} (every {validation_every}th game); {config:?}",
        loaded.train.len(),
        loaded.validation.len()
    );
    // What a resumed run must match: the settings (threads included: they
    // set the order of the gradient's float sums) and the samples themselves.
    let identity = format!(
        "{config:?} mirror {mirror} validation-every {validation_every} {filter:?} \
         train {} {:016x} validation {} {:016x}",
        loaded.train.len(),
        trainer::sample::digest(&loaded.train),
        loaded.validation.len(),
        trainer::sample::digest(&loaded.validation),
    );
    let start = match (init, resume && state_path.exists()) {
        (Some(params), _) => Start::Weights(params),
        (None, false) => {
            if resume {
                eprintln!("--resume: no {} yet, so the run begins", state_path.display());
            }
            Start::Fresh
        }
        (None, true) => {
            let optimiser = trainer::train::optimiser(&config, layout.len());
            let (found, snapshot) = resume::read(&state_path, &optimiser)?;
            if found != identity {
                return Err(format!(
                    "{}: a run of other settings or data:\n  {found}\nnot\n  {identity}",
                    state_path.display()
                ));
            }
            eprintln!("--resume: {} of {} epochs done", snapshot.epochs_done, config.epochs);
            Start::Resume(snapshot)
        }
    };
    let epochs_before = match &start {
        Start::Resume(s) => s.epochs_done,
        _ => 0,
    };
    let log_path = out.join("loss.csv");
    let mut log = open_loss_log(&log_path, epochs_before)?;
    let mut error = None;
    let train_start = Instant::now();
    let validation = loaded.validation.clone();
    let epochs = config.epochs;
    let share_before = epochs_before as f64 / epochs.max(1) as f64;
    train(
        &config,
        &mut loaded.train,
        &loaded.validation,
        start,
        |r, snapshot: &Snapshot| {
            let elapsed = train_start.elapsed().as_secs_f64();
            let eta = elapsed / (r.epoch - epochs_before) as f64 * (epochs - r.epoch) as f64;
            eprintln!(
                "epoch {}/{epochs}  train {:.6}  validation {:.6}  lr {:.2e}  {:.0} samples/s  elapsed {:.0} s  ETA {:.0} s",
                r.epoch, r.train_loss, r.validation_loss, r.lr, r.samples_per_second, elapsed, eta
            );
            let line = format!(
                "{},{:.7},{:.7},{:.3e},{:.0}",
                r.epoch, r.train_loss, r.validation_loss, r.lr, r.samples_per_second
            );
            if let Err(e) = writeln!(log, "{line}").and_then(|()| log.flush()) {
                error = Some(format!("{}: {e}", log_path.display()));
            }
            let params = &snapshot.params;
            if let Err(e) = write_checkpoint(&out, r.epoch, layout, params, &validation)
                .and_then(|()| resume::write(&state_path, &identity, snapshot))
            {
                error = Some(e);
            }
        },
        |epoch, done, rate, running| {
            let elapsed = train_start.elapsed().as_secs_f64();
            let eta = elapsed / (done - share_before).max(1e-9) * (1.0 - done);
            eprintln!(
                "  epoch {epoch}  {:.1}% of training  {rate:.0} samples/s  loss {running:.6}  ETA {eta:.0} s",
                done * 100.0
            );
        },
    );
    error.map_or(Ok(()), Err)
}

/// The loss log of a run, `epoch,train_loss,…` a line per epoch: a new one,
/// or when `epochs_before` epochs were done already, theirs kept and any later
/// line (an epoch whose state was never written) dropped.
fn open_loss_log(path: &Path, epochs_before: usize) -> Result<std::fs::File, String> {
    let failed = |e: std::io::Error| format!("{}: {e}", path.display());
    let header = "epoch,train_loss,validation_loss,lr,samples_per_second";
    let kept: Vec<String> = if epochs_before == 0 {
        Vec::new()
    } else {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter(|line| {
                let epoch = line.split(',').next().and_then(|e| e.parse::<usize>().ok());
                epoch.is_some_and(|e| e <= epochs_before)
            })
            .map(str::to_string)
            .collect()
    };
    let mut log = std::fs::File::create(path).map_err(failed)?;
    for line in std::iter::once(header).chain(kept.iter().map(String::as_str)) {
        writeln!(log, "{line}").map_err(failed)?;
    }
    Ok(log)
}

/// Writes the float parameters (`epoch-N.params`) and the quantised net
/// (`epoch-N.nnue`, of the net's own size, its bias corrected on `samples`).
fn write_checkpoint(
    dir: &Path,
    epoch: usize,
    layout: Layout,
    params: &[f32],
    samples: &[trainer::sample::Sample],
) -> Result<(), String> {
    let path = dir.join(format!("epoch-{epoch}.params"));
    let mut bytes = Vec::with_capacity(8 + 4 * params.len());
    bytes.extend_from_slice(b"TSPF");
    bytes.extend_from_slice(&(layout.hidden as u32).to_le_bytes());
    for p in params {
        bytes.extend_from_slice(&p.to_le_bytes());
    }
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    write_quantised(&dir.join(format!("epoch-{epoch}.nnue")), layout, params, samples)
}

/// Quantises `params` (bias corrected on `samples`), reports the remaining
/// error on the second half of them and writes the net to `path`.
fn write_quantised(
    path: &Path,
    layout: Layout,
    params: &[f32],
    samples: &[trainer::sample::Sample],
) -> Result<(), String> {
    let net = trainer::quantise::quantise_corrected(layout, params, samples);
    let check = &samples[samples.len() / 2..];
    let (mean, worst) = trainer::quantise::quantisation_error(layout, params, &net, check);
    eprintln!(
        "  quantised vs float on {} held-out positions: mean {mean:.2} cp, worst {worst:.1} cp",
        check.len()
    );
    if layout.hidden != eval::nnue::HIDDEN || layout.output_buckets != eval::nnue::OUTPUT_BUCKETS {
        eprintln!(
            "  {}: {} neurons, {} output buckets; an engine reads it when built with HIDDEN = {} \
             and OUTPUT_BUCKETS = {} (docs/nnue.md)",
            path.display(),
            layout.hidden,
            layout.output_buckets,
            layout.hidden,
            layout.output_buckets
        );
    }
    std::fs::write(path, net.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// The largest checkpoint read: the float parameters of 4096 neurons with
/// the factoriser are about 26 MB.
const CHECKPOINT_LIMIT: u64 = 64 << 20;

/// The bounds of a PGN file of match games: a game's move text with a score
/// comment on every move fits in far less than a MiB a line.
const PGN_LIMITS: infile::TextLimits = infile::TextLimits { line: 1 << 20, total: 4 << 30 };

/// Reads float parameters written by [`write_checkpoint`]: their layout comes
/// from the header (the size) and the length (whether the factoriser is there).
fn read_params(path: &Path) -> Result<(Layout, Vec<f32>), String> {
    let bytes = infile::InputFile::open(path)?.read_all(CHECKPOINT_LIMIT)?;
    let ok_header = bytes.len() >= 8 && &bytes[..4] == b"TSPF";
    let hidden =
        if ok_header { u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) } else { 0 };
    // The file holds the hidden size; the factoriser and the output buckets
    // are the ones whose parameter count matches its length.
    let fits = |l: &Layout| hidden > 0 && bytes.len() == 8 + 4 * l.len();
    let candidates = (1..=32).flat_map(|output_buckets| {
        [false, true].map(|factorised| Layout {
            hidden: hidden as usize,
            factorised,
            output_buckets,
        })
    });
    let mut found = candidates.filter(fits);
    let layout = match (found.next(), found.next()) {
        (Some(layout), None) => layout,
        (Some(a), Some(b)) => {
            return Err(format!("{}: its length fits both {a:?} and {b:?}", path.display()));
        }
        (None, _) => return Err(format!("{}: not a checkpoint of the trainer", path.display())),
    };
    let params =
        bytes[8..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Ok((layout, params))
}

/// Quantises a checkpoint's float parameters again, with the bias corrected on
/// the validation games of DATA (every `--validation-every`th game, as in
/// training, so the same data gives the file training wrote).
fn run_quantise(args: &[String]) -> Result<(), String> {
    let (flags, paths) =
        parse(args, &["params", "out", "validation-every", "min-ply", "max-score", "threads"])?;
    let params_path = flags.get("params").ok_or("--params FILE is required")?;
    let out = flags.get("out").ok_or("--out FILE.nnue is required")?;
    let (layout, params) = read_params(Path::new(params_path))?;
    let files = data::data_files(&paths)?;
    if files.is_empty() {
        return Err("no data files given (the validation games correct the output bias)".into());
    }
    let threads =
        get(&flags, "threads", std::thread::available_parallelism().map_or(1, |n| n.get()))?;
    let loaded = data::load(
        &files,
        &filter_from(&flags)?,
        get(&flags, "validation-every", 50u64)?,
        threads,
    )?;
    eprintln!(
        "{}: {} neurons, {} output buckets, factoriser {}",
        params_path, layout.hidden, layout.output_buckets, layout.factorised
    );
    write_quantised(Path::new(out), layout, &params, &loaded.validation)
}

fn run_stats(args: &[String]) -> Result<(), String> {
    let (flags, paths) = parse(args, &["min-ply", "max-score"])?;
    let filter = filter_from(&flags)?;
    let mut total = FilterStats::default();
    for file in data::data_files(&paths)? {
        let mut stats = FilterStats::default();
        let mut results = [0u64; 3];
        let mut sink = Vec::new();
        data::for_each_game(&file, |game| {
            results[game.result as usize] += 1;
            data::samples_of(&game, &filter, &mut sink, &mut stats);
            sink.clear();
        })?;
        eprint!("{}: W/D/L {}/{}/{}  ", file.display(), results[2], results[1], results[0]);
        print_stats(&stats);
        total.add(&stats);
    }
    eprint!("total: ");
    print_stats(&total);
    Ok(())
}

/// Games between the Tessera builds named by `--players` (the PGN's White and
/// Black names), with the score of every engine move, as binary games.
fn run_import_pgn(args: &[String]) -> Result<(), String> {
    let (flags, paths) = parse(args, &["out", "players"])?;
    let out = flags.get("out").ok_or("--out FILE is required")?;
    let players: std::collections::HashSet<String> = flags
        .get("players")
        .ok_or("--players NAME,NAME... is required: the PGN names of the Tessera builds")?
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let file = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut writer = BufWriter::new(file);
    let (mut games, mut positions) = (0u64, 0u64);
    let mut skipped = std::collections::BTreeMap::<String, u64>::new();
    for path in &paths {
        let text = infile::InputFile::open(path)?.read_text(PGN_LIMITS)?;
        for pgn in trainer::pgn::parse_pgn(&text) {
            match trainer::pgn::to_game(&pgn, &players) {
                Ok(game) => {
                    games += 1;
                    positions += game.plies.len() as u64;
                    write_game(&mut writer, &game).map_err(|e| format!("{out}: {e}"))?;
                }
                Err(why) => {
                    let key = match why {
                        trainer::pgn::Skipped::Invalid(e) => {
                            eprintln!("{}: skipped: {e}", path.display());
                            "invalid".to_string()
                        }
                        other => format!("{other:?}"),
                    };
                    *skipped.entry(key).or_default() += 1;
                }
            }
        }
    }
    writer.flush().map_err(|e| format!("{out}: {e}"))?;
    eprintln!("{games} games, {positions} positions -> {out}; skipped: {skipped:?}");
    Ok(())
}

fn run_text(args: &[String]) -> Result<(), String> {
    let (flags, paths) = parse(args, &["out"])?;
    let out = flags.get("out").ok_or("--out FILE is required")?;
    let file = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut writer = BufWriter::new(file);
    let mut error = None;
    for file in data::data_files(&paths)? {
        data::for_each_game(&file, |game| {
            let result = ["0.0", "0.5", "1.0"][game.result as usize];
            for (_, board, ply) in game.positions() {
                let fen = board.to_fen(board.has_chess960_castling());
                let mv = board.move_to_uci(ply.mv, board.has_chess960_castling());
                let line = format!("{fen} | {} | {result} | {mv}", ply.white_score);
                if let Err(e) = writeln!(writer, "{line}") {
                    error.get_or_insert(e);
                }
            }
        })?;
    }
    if let Some(e) = error {
        return Err(format!("{out}: {e}"));
    }
    writer.flush().map_err(|e| format!("{out}: {e}"))
}
