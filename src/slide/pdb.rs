//! Additive disjoint pattern databases (Korf & Felner 2002) for boards of at most 16 cells,
//! blank-first goal.
//!
//! Each pattern is a set of tiles; its table holds, for every placement of those tiles, the
//! fewest moves *of those tiles* needed to bring them home, found by a breadth-first search
//! backwards from the goal in which moving any other tile is free (a 0-1 BFS over the pattern
//! tiles plus the blank). Because each table counts only its own tiles' moves, the values of
//! disjoint patterns add up and stay admissible. Reflecting the board about the main diagonal
//! gives a second, equally valid lookup in the same tables; the estimate is the larger one.
//!
//! In memory a table is indexed by the tiles' cells packed 4 bits each (`Σ cell_j << 4j`), so
//! the search can update an index in O(1) when one tile slides; on disk only the
//! `16·15·…` valid placements are stored, one byte each, behind a checked header.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Most patterns a database may have (4×4 uses three; every ≤16-cell board needs ≤ 3 of ≤ 6).
pub const MAX_PATTERNS: usize = 4;
/// Most tiles in one pattern: the build state (tiles + blank, 4 bits each) fits 32 bits and
/// a 268 MB byte array for 6 + blank... and 4 GB for 7, which is too much to build here.
pub const MAX_PATTERN_TILES: usize = 6;
const MAGIC: &[u8; 8] = b"LLKSPDB1";

/// A set of additive pattern tables for one board size, ready for lookups.
#[derive(Debug)]
pub struct PatternDb {
    width: usize,
    height: usize,
    patterns: Vec<Vec<u8>>,
    tables: Vec<Vec<u8>>,
    reflect: bool,
    /// For each tile: (pattern, bit shift of its cell in that pattern's index).
    slot: Vec<(u8, u8)>,
}

/// The partition used when none is given: for 4×4 a 6-6-3 split (measured on Korf's 100:
/// 40.6M nodes generated in all, against 119.5M for the top-row-3 split
/// `{4,5,8,9,12,13} {6,7,10,11,14,15} {1,2,3}`); otherwise the
/// tiles in goal order cut into the fewest groups of at most 6, as even as possible.
pub fn default_patterns(width: usize, height: usize) -> Vec<Vec<u8>> {
    if width == 4 && height == 4 {
        return vec![
            vec![1, 4, 5, 8, 9, 12],
            vec![2, 3, 6, 7, 10, 11],
            vec![13, 14, 15],
        ];
    }
    let n = width * height - 1;
    let groups = n.div_ceil(MAX_PATTERN_TILES);
    let mut out = Vec::new();
    let mut next = 1;
    for g in 0..groups {
        let size = n / groups + usize::from(g < n % groups);
        out.push((next..next + size).map(|t| t as u8).collect());
        next += size;
    }
    out
}

/// Where tables are cached: `$LLK_CACHE`, else `$XDG_CACHE_HOME/llk`, else `~/.cache/llk`.
pub fn cache_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("LLK_CACHE") {
        return PathBuf::from(p);
    }
    if let Some(p) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(p).join("llk");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| ".".into());
    PathBuf::from(home).join(".cache").join("llk")
}

fn refl_cell(c: usize, width: usize) -> usize {
    (c % width) * width + c / width
}

/// Number of placements of `k` distinct tiles on `cells` cells: `cells!/(cells−k)!`.
fn placements(cells: usize, k: usize) -> usize {
    (cells - k + 1..=cells).product()
}

/// Dense rank of a placement (cells distinct, each < `cells`) in `0..placements(cells, k)`.
fn rank(pos: &[usize], cells: usize) -> usize {
    let mut r = 0;
    for (j, &p) in pos.iter().enumerate() {
        let smaller_used = pos[..j].iter().filter(|&&q| q < p).count();
        r = r * (cells - j) + (p - smaller_used);
    }
    r
}

/// Cells of the `k` tiles of a sparse index, or `None` if two share a cell or one is off
/// the board (such indices are never looked up).
fn decode(idx: usize, k: usize, cells: usize) -> Option<[usize; MAX_PATTERN_TILES]> {
    let mut pos = [0usize; MAX_PATTERN_TILES];
    let mut used = 0u32;
    for (j, p) in pos.iter_mut().enumerate().take(k) {
        let c = (idx >> (4 * j)) & 15;
        if c >= cells || used & (1 << c) != 0 {
            return None;
        }
        used |= 1 << c;
        *p = c;
    }
    Some(pos)
}

/// Table of one pattern by 0-1 BFS from the goal over (pattern tiles, blank). Returns the
/// sparse table indexed by `Σ cell_j << 4j` (entries of impossible placements are 0).
pub fn build_pattern(width: usize, height: usize, tiles: &[u8], bar: &ProgressBar) -> Vec<u8> {
    let k = tiles.len();
    let cells = width * height;
    let size = 1usize << (4 * (k + 1));
    let mut nbrs = vec![Vec::new(); cells];
    for (c, n) in nbrs.iter_mut().enumerate() {
        for d in super::puzzle::Dir::ALL {
            if let Some(q) = super::puzzle::step(c, d, width, height) {
                n.push(q as u32);
            }
        }
    }
    let mut dist = vec![u8::MAX; size];
    let mut goal = 0u32; // blank home at cell 0
    for (j, &t) in tiles.iter().enumerate() {
        goal |= (t as u32) << (4 * (j + 1));
    }
    dist[goal as usize] = 0;
    let mut cur = vec![goal];
    let mut next = Vec::new();
    let mut d = 0u8;
    let mut done = 0u64;
    loop {
        let mut i = 0;
        while i < cur.len() {
            let s = cur[i];
            i += 1;
            if dist[s as usize] != d {
                continue;
            }
            done += 1;
            if done & 0xffff == 0 {
                bar.inc(0x10000);
            }
            let blank = s & 15;
            let mut owner = [u8::MAX; 16];
            for j in 0..k {
                owner[((s >> (4 * (j + 1))) & 15) as usize] = j as u8;
            }
            for &q in &nbrs[blank as usize] {
                let j = owner[q as usize];
                if j == u8::MAX {
                    let ns = (s & !15) | q;
                    if dist[ns as usize] > d {
                        dist[ns as usize] = d;
                        cur.push(ns);
                    }
                } else {
                    let sh = 4 * (j as u32 + 1);
                    let ns = (s & !(15 << sh) & !15) | (blank << sh) | q;
                    if dist[ns as usize] > d + 1 {
                        dist[ns as usize] = d + 1;
                        next.push(ns);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        d += 1;
        cur.clear();
        std::mem::swap(&mut cur, &mut next);
    }
    let mut table = vec![u8::MAX; 1 << (4 * k)];
    for (s, &v) in dist.iter().enumerate() {
        let t = &mut table[s >> 4];
        if v < *t {
            *t = v;
        }
    }
    for t in table.iter_mut() {
        if *t == u8::MAX {
            *t = 0;
        }
    }
    table
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn header(width: usize, height: usize, tiles: &[u8]) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend([width as u8, height as u8, tiles.len() as u8]);
    h.extend(tiles);
    h
}

/// File a pattern's table is cached in, named after the board and the pattern's tiles.
pub fn cache_file(dir: &Path, width: usize, height: usize, tiles: &[u8]) -> PathBuf {
    let names: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    dir.join(format!(
        "slide-pdb-{height}x{width}-{}.bin",
        names.join("-")
    ))
}

/// Writes a sparse table compactly: header, payload length, FNV-1a checksum, then one
/// byte per valid placement in rank order. Written to a temporary name then renamed, so a
/// crash never leaves a half-written file under the real name.
pub fn save_table(
    path: &Path,
    width: usize,
    height: usize,
    tiles: &[u8],
    table: &[u8],
) -> Result<()> {
    let cells = width * height;
    let k = tiles.len();
    let mut dense = vec![0u8; placements(cells, k)];
    for (idx, &v) in table.iter().enumerate() {
        if let Some(pos) = decode(idx, k, cells) {
            dense[rank(&pos[..k], cells)] = v;
        }
    }
    let mut out = header(width, height, tiles);
    out.extend((dense.len() as u64).to_le_bytes());
    out.extend(fnv1a(&dense).to_le_bytes());
    out.extend(&dense);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create cache folder {}", dir.display()))?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, &out).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot rename to {}", path.display()))?;
    Ok(())
}

/// Reads a cached table back into sparse form, refusing any file whose header, size or
/// checksum does not match what this pattern needs.
pub fn load_table(path: &Path, width: usize, height: usize, tiles: &[u8]) -> Result<Vec<u8>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let cells = width * height;
    let k = tiles.len();
    let head = header(width, height, tiles);
    let want = placements(cells, k);
    if bytes.len() < head.len() + 16 || bytes[..head.len()] != head[..] {
        bail!("{}: header does not match this pattern", path.display());
    }
    let mut at = head.len();
    let len = u64::from_le_bytes(bytes[at..at + 8].try_into()?) as usize;
    let sum = u64::from_le_bytes(bytes[at + 8..at + 16].try_into()?);
    at += 16;
    if len != want || bytes.len() != at + want {
        bail!(
            "{}: {} payload bytes, expected {want} (truncated or wrong size)",
            path.display(),
            bytes.len() - at
        );
    }
    let dense = &bytes[at..];
    if fnv1a(dense) != sum {
        bail!("{}: checksum mismatch (corrupt file)", path.display());
    }
    let mut table = vec![0u8; 1 << (4 * k)];
    for (idx, v) in table.iter_mut().enumerate() {
        if let Some(pos) = decode(idx, k, cells) {
            *v = dense[rank(&pos[..k], cells)];
        }
    }
    Ok(table)
}

impl PatternDb {
    /// Loads each pattern's table from `cache` (when given and valid) or builds it — the
    /// builds run on parallel threads with a progress bar — and saves what it built.
    /// A cached file that fails its checks is reported on stderr and rebuilt.
    pub fn load_or_build(
        width: usize,
        height: usize,
        patterns: Vec<Vec<u8>>,
        cache: Option<&Path>,
    ) -> Result<PatternDb> {
        let cells = width * height;
        if cells > 16 {
            bail!(
                "pattern databases need a board of at most 16 cells; {height}x{width} has {cells}"
            );
        }
        if patterns.is_empty() || patterns.len() > MAX_PATTERNS {
            bail!("a pattern database needs 1..={MAX_PATTERNS} patterns");
        }
        let mut seen = vec![false; cells];
        for p in &patterns {
            if p.is_empty() || p.len() > MAX_PATTERN_TILES {
                bail!(
                    "each pattern needs 1..={MAX_PATTERN_TILES} tiles, got {}",
                    p.len()
                );
            }
            for &t in p {
                if t == 0 || t as usize >= cells || seen[t as usize] {
                    bail!("tile {t} is invalid or in two patterns");
                }
                seen[t as usize] = true;
            }
        }
        if seen.iter().skip(1).any(|s| !s) {
            bail!("the patterns must cover every tile 1..{}", cells - 1);
        }
        let mut tables: Vec<Option<Vec<u8>>> = vec![None; patterns.len()];
        if let Some(dir) = cache {
            for (i, p) in patterns.iter().enumerate() {
                let f = cache_file(dir, width, height, p);
                if f.exists() {
                    match load_table(&f, width, height, p) {
                        Ok(t) => tables[i] = Some(t),
                        Err(e) => eprintln!("pattern cache rejected, rebuilding: {e:#}"),
                    }
                }
            }
        }
        let missing: Vec<usize> = (0..patterns.len())
            .filter(|&i| tables[i].is_none())
            .collect();
        if !missing.is_empty() {
            let total: u64 = missing
                .iter()
                .map(|&i| {
                    (placements(cells, patterns[i].len()) * (cells - patterns[i].len())) as u64
                })
                .sum();
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "building pattern tables {bar:40} {percent}% {elapsed} (eta {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            // Two workers (the machine's cores); biggest patterns first.
            let mut order = missing.clone();
            order.sort_by_key(|&i| std::cmp::Reverse(patterns[i].len()));
            order.reverse();
            let queue = Mutex::new(order);
            let built: Vec<(usize, Vec<u8>)> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..2)
                    .map(|_| {
                        s.spawn(|| {
                            let mut out = Vec::new();
                            loop {
                                let next = queue.lock().map(|mut q| q.pop()).unwrap_or(None);
                                let Some(i) = next else { break };
                                out.push((i, build_pattern(width, height, &patterns[i], &bar)));
                            }
                            out
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_default())
                    .collect()
            });
            bar.finish_and_clear();
            for (i, t) in built {
                if let Some(dir) = cache {
                    let f = cache_file(dir, width, height, &patterns[i]);
                    if let Err(e) = save_table(&f, width, height, &patterns[i], &t) {
                        eprintln!("could not cache pattern table: {e:#}");
                    }
                }
                tables[i] = Some(t);
            }
        }
        let tables: Vec<Vec<u8>> = tables
            .into_iter()
            .map(|t| t.context("a pattern table failed to build"))
            .collect::<Result<_>>()?;
        let mut slot = vec![(0u8, 0u8); cells];
        for (pi, p) in patterns.iter().enumerate() {
            for (j, &t) in p.iter().enumerate() {
                slot[t as usize] = (pi as u8, (4 * j) as u8);
            }
        }
        Ok(PatternDb {
            width,
            height,
            patterns,
            tables,
            reflect: width == height,
            slot,
        })
    }

    /// The shared database for a board size with the default partition, loaded (or built
    /// and cached) once per process.
    pub fn for_board(width: usize, height: usize) -> Result<Arc<PatternDb>> {
        static DBS: OnceLock<Mutex<HashMap<(usize, usize), Arc<PatternDb>>>> = OnceLock::new();
        let dbs = DBS.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = dbs
            .lock()
            .map_err(|_| anyhow::anyhow!("pattern database cache lock poisoned"))?;
        if let Some(db) = map.get(&(width, height)) {
            return Ok(db.clone());
        }
        let dir = cache_dir();
        let db = Arc::new(PatternDb::load_or_build(
            width,
            height,
            default_patterns(width, height),
            Some(&dir),
        )?);
        map.insert((width, height), db.clone());
        Ok(db)
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The tiles of each pattern (for reports).
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// Whether the diagonal reflection is used (square boards only).
    pub fn reflects(&self) -> bool {
        self.reflect
    }

    /// Pattern and shift of a tile's cell in that pattern's index.
    pub fn slot(&self, tile: u8) -> (usize, u32) {
        let (p, s) = self.slot[tile as usize];
        (p as usize, s as u32)
    }

    /// The reflected tile (or cell) of `t` about the main diagonal; `t` itself on
    /// non-square boards, where the reflection is not used.
    pub fn reflect_cell(&self, t: usize) -> usize {
        if self.reflect {
            refl_cell(t, self.width)
        } else {
            t
        }
    }

    /// Table value of pattern `p` at sparse index `idx`.
    #[inline]
    pub fn value(&self, p: usize, idx: usize) -> u32 {
        self.tables[p][idx] as u32
    }

    /// Sparse indices of every pattern for `tiles` and for its reflection.
    pub fn indices(&self, tiles: &[u8]) -> ([usize; MAX_PATTERNS], [usize; MAX_PATTERNS]) {
        let mut reg = [0usize; MAX_PATTERNS];
        let mut refl = [0usize; MAX_PATTERNS];
        for (cell, &t) in tiles.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let (p, s) = self.slot(t);
            reg[p] |= cell << s;
            let (p, s) = self.slot(self.reflect_cell(t as usize) as u8);
            refl[p] |= self.reflect_cell(cell) << s;
        }
        (reg, refl)
    }

    /// Sum of the tables at the given indices.
    #[inline]
    pub fn sum(&self, idx: &[usize; MAX_PATTERNS]) -> u32 {
        (0..self.tables.len()).map(|p| self.value(p, idx[p])).sum()
    }

    /// The estimate for a blank-first position: the larger of the direct and reflected sums.
    pub fn estimate(&self, tiles: &[u8]) -> u32 {
        let (reg, refl) = self.indices(tiles);
        let a = self.sum(&reg);
        if self.reflect {
            a.max(self.sum(&refl))
        } else {
            a
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection() {
        let cells = 9;
        let k = 3;
        let mut seen = vec![false; placements(cells, k)];
        for idx in 0..1 << (4 * k) {
            if let Some(p) = decode(idx, k, cells) {
                let r = rank(&p[..k], cells);
                assert!(!seen[r]);
                seen[r] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn cache_roundtrip_and_corruption_is_detected() {
        let dir = std::env::temp_dir().join(format!("llk-pdb-test-{}", std::process::id()));
        let pats = default_patterns(3, 3);
        let db = PatternDb::load_or_build(3, 3, pats.clone(), Some(&dir)).unwrap();
        let f = cache_file(&dir, 3, 3, &pats[0]);
        let t = load_table(&f, 3, 3, &pats[0]).unwrap();
        assert_eq!(t, db.tables[0]);
        // Truncate: rejected.
        let bytes = std::fs::read(&f).unwrap();
        std::fs::write(&f, &bytes[..bytes.len() - 10]).unwrap();
        assert!(load_table(&f, 3, 3, &pats[0]).is_err());
        // Flip one payload byte: checksum rejects it.
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        std::fs::write(&f, &bad).unwrap();
        let e = load_table(&f, 3, 3, &pats[0]).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        // load_or_build rebuilds and rewrites a good file.
        let db2 = PatternDb::load_or_build(3, 3, pats.clone(), Some(&dir)).unwrap();
        assert_eq!(db2.tables, db.tables);
        assert!(load_table(&f, 3, 3, &pats[0]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
