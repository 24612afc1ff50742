//! Every threshold the board reader uses, in one place, each with the measured populations
//! that justify it. Stages take the config as a parameter; nothing in them is a bare number
//! that decides.

/// The reader's thresholds. [`ReaderConfig::default`] is what `llk read` and `llk play` use.
#[derive(Clone, Debug, PartialEq)]
pub struct ReaderConfig {
    /// Smallest cell pitch looked for, px. Tiles under about 16 px cannot be told apart by a
    /// player either; the smallest tiles seen on real boards are 20 px at 100 % scale.
    pub min_pitch: f32,
    /// Largest cell pitch looked for, px (also bounded by a third of the frame, so at least
    /// three cells fit across). Phone screenshots at 3× scale have tiles of up to 200 px.
    pub max_pitch: f32,
    /// An autocorrelation peak must reach this (of the zero-lag value) to be a period. Tile
    /// lattices give 0.3–0.9 at their pitch; edge profiles of text, photos and menus stay
    /// under 0.15 away from lag 0.
    pub min_periodicity: f32,
    /// A divisor of the strongest comb (pitch / 2, / 3) is taken instead when the profile
    /// also repeats at the divisor's own teeth between the strongest comb's, at least this
    /// share of the strongest comb's score: the multiples of a pitch comb as well as the
    /// pitch itself, but only the real period repeats in between. Boards whose rows carry a
    /// second, coarser rhythm (alternate rows shaded) measure 0.45 there; the flat humps of
    /// glyph strokes under a true pitch measure 0.0–0.1.
    pub divisor_keep: f32,
    /// A cell is at most this many times longer one way than the other. Over 1 090 frames
    /// with known pitch (KShisen at six sizes and seven tile sets, the rendered fixtures, the
    /// real screenshots) cells measure 0.70–1.00 wide for each pixel high. A lattice
    /// outside it has one axis at a multiple of its cells' pitch (rows alternating full and
    /// emptied: 31 × 70 px for 31 × 35 px cells), which is then divided while the profile
    /// repeats at the divisor ([`super::lattice::divided`]).
    pub max_cell_aspect: f32,
    /// A lattice comb whose four teeth do not all fit in the profile (a pitch over an eighth
    /// of the frame) is scored on fewer teeth and must beat the best four-tooth comb by this
    /// share. On mid-game KShisen frames a two-tooth comb can score just above the tiles'
    /// (30 cells of 32 px across 899 px: 0.447 at 220 px, 0.442 at 64 px, 0.425 at the true 32).
    pub short_comb_margin: f32,
    /// A pixel is on an edge when its summed RGB change to the next pixel exceeds this
    /// (0–765). Tile borders and gaps change by 30–200 on the games measured; JPEG noise at
    /// quality 60–90 by under 15; a textured ground's grain by 5–40.
    pub edge_min: u32,
    /// The pitch found from the profiles is refined by twins within this share of itself
    /// either way. The profiles' pitch measured up to 0.33 % off on KShisen (69.77 for 70
    /// px, which puts twins six rows apart 1.4 px out of line and breaks their pairing).
    pub pitch_search: f32,
    /// Most sweeps of the phase search (the axes in turn; it stops earlier once a sweep
    /// leaves its axis where it was). An axis swept while the other is still off can see
    /// costs flat over half a pitch and settle anywhere on them: measured on KShisen
    /// mid-game frames, x swept twice settled 16 px (0.28 pitch) off; swept a third time,
    /// with y in place, its costs fell from 13-25 to under 0.5 on a third of the shifts.
    pub phase_sweeps: usize,
    /// Where the sweeps from the profiles' phase leave twins apart (twin cost above
    /// [`ReaderConfig::same_floor`]), the phase search also tries a 4×4 grid of shifts a
    /// quarter pitch apart on both axes, and sweeps again from the best of them when its
    /// cost is this many times lower: with both axes about half a cell off, no sweep of
    /// one axis makes twins meet while the other is off. Measured: a full KShisen 18×8
    /// board over a photo ground settled at cost 24.3 from the profiles, the grid's best
    /// was 0.2; rendered boards whose profiles' phase failed, 14.8 and 17.8 against 4.3 and
    /// 2.3; where the profiles' phase is right the two costs are within 20 % of each other.
    pub phase_seed_gain: f32,
    /// The profiles' phase replaces the twins' when it leaves at least this many fewer
    /// pictures without a twin on the sheet. Measured on 400 rendered boards, 64 frames
    /// where the profiles' phase left fewer: on the 29 it turned from refused or wrong to
    /// exact, the twins' phase had left 5–106 lone pictures and the profiles' 0–14; on
    /// three the two differed by one (a stone alone near the ground's colour), and there
    /// the switch turned one exact reading wrong.
    pub phase_lone_margin: usize,
    /// Blocks per side of a cell descriptor (block means of the cell's inner part).
    pub blocks: usize,
    /// Fraction of the pitch cut from each side of a cell before it is described: keeps the
    /// neighbours' borders, 3-D sides and drop shadows out of the comparison (they are 4–12 %
    /// of the pitch on the games measured).
    pub inset: f32,
    /// Two cells whose descriptors differ by less than this (mean absolute difference of
    /// block means, 0–255) are always one picture: same-sprite pairs measure 0–2 on PNG
    /// captures and 1–4 under JPEG quality 60–90.
    pub same_floor: f32,
    /// Two cells that differ by more than this are never one picture, whatever the frame's
    /// own populations say: different sprites of one tile set measure 9 and up.
    pub different_ceiling: f32,
    /// The cut between same and different pictures sits where the sorted minimum-spanning
    /// distances jump by at least this factor (log scale gap between the two populations).
    pub min_gap_ratio: f32,
    /// A cell is flat when the spread of its block means is under this: plain ground, or a
    /// blank face. Textured grounds measure 3–15, tile pictures 20 and up.
    pub flat_spread: f32,
    /// A ground model whose cells' spread reaches this is as busy as tile faces (tile
    /// pictures measure 20 and up, plain and textured grounds 3–15 as in
    /// [`ReaderConfig::flat_spread`]): it comes from a ring that straddles tiles (a
    /// lattice off the tiles' phase, by a board that nearly fills the window's width) and
    /// is learnt again once the phase is found. Ring cells this busy are left out of the
    /// ground model while four calmer ones remain (light faces share a light wood's mean
    /// colour within the ground's tolerance; only their spread sets them apart).
    pub busy_ground_spread: f32,
    /// An empty cell's descriptor lies within this of the ground model (the cells around the
    /// board), after removing the model's own spread.
    pub ground_margin: f32,
    /// A picture with at least this share of its blocks in the ground's colour is mostly
    /// ground: the cell beside a lone tile, its shadow along one edge (a fifth of the cell
    /// on the games measured), leaves 0.7–0.8 of the blocks ground-coloured; a tile's face
    /// shows the ground nowhere unless its face has the ground's colour (then its frame
    /// decides).
    pub ground_share: f32,
    /// The darkest a drop shadow makes the ground, as a share of the ground's colour: a
    /// block of that hue between this and full brightness counts as ground. KShisen's soft
    /// tile shadows on its green ground measure 0.54–1.0 and cover up to half of an emptied
    /// cell's inner part; tile faces' dark strokes on a coloured ground stay off the ground's
    /// hue by 12 and more.
    pub shadow_min: f32,
    /// A cell whose inner part reads as ground, and whose outer ring stands out from its face
    /// by more than [`ReaderConfig::ground_margin`], is a blank tile when the nearest tile
    /// frame is this many times nearer its frame than the nearest ground frame (median block
    /// differences over the ring). Measured over the KShisen corpus and the rendered
    /// fixtures: of the ground-read cells that pass the contrast test, KShisen's (its blank
    /// faces among them) measure over 10 in 3073 of 9613; the rendered fixtures' patterned
    /// and gradient grounds under 5 in 134 of 144, and a ratio of 2–5 turns two empty cells
    /// of a patterned ground into a blank pair. A group of the ground's colour and texture
    /// that is neither flat nor mostly ground is a type of tiles by the same ratio: faint
    /// faces on a textured ground (KShisen's egypt faces on its wood: 0.01 from the tiles'
    /// frame, 8.4 from the ground's), not cells emptied beside a tile's 3-D side (14–17
    /// and 16–17 there).
    pub blank_frame_ratio: f32,
    /// A member of a ground-coloured group whose frame lies within this of the frame the
    /// tiles share (per block, the median over the tile-like pictures; the same median
    /// block difference), and [`ReaderConfig::blank_frame_ratio`] times nearer it than any
    /// ground cell's, shows the tiles' own frame: the group is a type of tiles whatever its
    /// other members' frames vote (a selected tile's tint reaches its frame, so a pair of
    /// one selected and one not ties). Measured on KShisen: an unselected face in the plain
    /// ground's white 0.0001 from the tiles' frame (the ground's 17.6), egypt faces on
    /// wood 0.01; cells emptied beside a tile's 3-D side 14–17. Against the nearest single
    /// tile's frame instead of the shared one, a lattice laid half off the tiles (cells
    /// straddling tile and ground alike) turned an unsure reading into a wrong, sure one.
    /// The same test keeps the ground from running on into a pictured type: of the groups
    /// the ground ran into on fixtures/kshisen and /xshisen, llk-real and four held-out
    /// KShisen and xshisen sets (about 600 frames), the 56 of emptied cells lay 4.25 and
    /// more from the shared frame; the one type of tiles, a light face with six circles on
    /// the light plain ground, 2.0–2.4 (8–9.6 times nearer it than the ground's).
    pub tile_frame_exact: f32,
    /// A cell read as ground inside the window, its ring standing out from its face, whose
    /// frame lies within [`ReaderConfig::tile_frame_exact`] of the frame the tiles share
    /// and this many times nearer it than the nearest ground cell's, is a blank face (as by
    /// [`ReaderConfig::blank_frame_ratio`] against the nearest tile's frame). KShisen's
    /// blank face on the light plain ground, whose inner part groups with the ground's:
    /// 1.5–1.8 from the shared frame, 6.2 from the ground's (3.4–4.1 times). Of 5551 cells
    /// of ground that pass the contrast test (the rendered fixtures 0..200 and 2200..2400:
    /// 1640; KShisen heldout26–28: 3911), none lies within 3 of the shared frame at 2 times
    /// or more; the nearest, on a dark noise ground, 1.1 from it and nearer the ground's.
    pub blank_shared_ratio: f32,
    /// A lone picture (no twin, no type's shape) on a grid found in the frame is ground
    /// when its frame lies at least this far from the frame the board's tiles share (the
    /// same median block difference as [`ReaderConfig::tile_frame_exact`]) and
    /// [`ReaderConfig::lone_frame_ratio`] times the paired pictures' median distance from
    /// it: the ground a game laid bare, a different patch of a photo in every emptied
    /// cell. Measured with the stage reader's looks: photo patches in cells emptied on a
    /// tkinter Shisen-Sho whose tiles are drawn edge to edge, 41–141 from the tiles'
    /// frame (1131 grounded over 156 frames, whose paired pictures' medians ran 3.2 typical,
    /// 6.2 at the 90th percentile); KShisen's tiles tinted by a selection 13.7–111.7, kept
    /// by their types' shapes; lone pictures with neither the frame nor a shape on
    /// fixtures/xshisen under 40 (a stippled selection 39.7). On fixtures/kshisen,
    /// fixtures/xshisen and llk-real the rule grounds 73, 19 and 174 cells of the looks
    /// and changes no default reading (the stage reader's: one late xshisen frame with a
    /// selection, unsure before, refused after).
    pub lone_frame_apart: f32,
    /// See [`ReaderConfig::lone_frame_apart`]: where the board's tiles are painted pictures
    /// with no frame in common (the paired pictures' median distance from their median
    /// frame 43–47 on KShisen's alphabet set on a photo), a lone picture must stand this
    /// many times further off than they do.
    pub lone_frame_ratio: f32,
    /// Two lone pictures are no pair of tiles (one of them tinted) when either's frame lies
    /// this many times nearer a ground cell's frame than the frame the tiles share.
    /// Measured on the KShisen sets with truth: the pairs read right lie 0–28 from the
    /// tiles' frame and 20–140 from the ground's, at worst 1.65 times nearer the ground's
    /// (a tile whose ring takes in a neighbour's shadow); pairs of cells past a board's
    /// edge (its 3-D side over a photo ground) have a member 21–56 times nearer it.
    pub ground_frame_ratio: f32,
    /// A selected tile whose face still matches its twins' (a selection drawn as a coloured
    /// frame or border tint) is found by its frame: the median block difference between its
    /// ring and its nearest twin's. On the KShisen corpus's 151 frames with a selection the
    /// selected tile measures 13–47 and unselected twins 0–8 (one type 12.5 on a textured
    /// ground); a type must also part at least twice as far as any other type. The tile
    /// found must also lie this far from the frame tiles show in its place (the median
    /// over tiles with tiles beside them on the same sides): on the KShisen and xshisen
    /// fixture frames, selected tiles measure 35–41 from it and their twins under 0.5; a
    /// board's corner tile, whose frame shows ground on two sides and parts from its
    /// twins' by 12–17 unselected, 0.0–0.4.
    pub selected_frame_gap: f32,
    /// A lone picture (a tile the game tints to show a selection) is of the type whose shape
    /// ([`super::pictures::shape_distance`], tint taken out) lies this many times nearer it
    /// than any other type's; two lone pictures are a pair when they lie this many times
    /// nearer each other than anything else; and a lone picture that holds a type's shape so
    /// is never taken for ground. Measured on KShisen: a selected tile tinted yellow on the
    /// wood ground 1.2 from its type and 15.1 from the next; emptied cells of ground 35–43
    /// from the nearest type and within 1.1 times that of the next.
    pub shape_join_ratio: f32,
    /// Where two sure readings of one lattice differ by obstacles that the second reads
    /// past the first's board, each must lie this many times nearer the nearest obstacle on
    /// the first's board than the nearest tile both read ([`super::verdict::replaces`]): a
    /// game draws its stones from one sprite. Measured on a rendered JPEG (quality 68)
    /// whose edge column held two crates: 2.3 and 2.5 from the crates on the board, 74
    /// from the nearest tile; no other frame of the rendered 0..400 and 7000..7300, the
    /// KShisen and xshisen fixtures and ../shared/llk-real has such cells.
    pub stray_stone_ratio: f32,
    /// A lone picture does not join a type whose shape lies more than this many times
    /// further from it than another lone picture's: that picture is its twin, one of the
    /// two tinted (a selected tile, the last two of its type), and both would otherwise
    /// join a type whose sprite differs from theirs only in colour. Measured: lone pictures
    /// that rightly joined their type lay at most 6.4 times nearer another lone picture
    /// than that type (946 joins on the KShisen sets with truth, 16 on rendered boards); a
    /// selected tile and its twin in the bundled game lay 0.2 apart and 6.4 from the type
    /// drawn alike in another colour (32 times).
    pub lone_twin_ratio: f32,
    /// Most lone pictures that may join one type as tinted tiles: a game shows one tile
    /// selected, or a hinted pair of one type. More joins into one type explain something
    /// else (cells a game emptied on a photo ground, alike to a pair of other emptied cells
    /// read as a type), and the cells joined are unsure. Pictures that JPEG noise parts
    /// from their twins join many types, one each. Measured over the KShisen sets with
    /// truth (534 frames): one join into a type on 173 frames; 2 to 4 only on frames
    /// refused, read wrong, or during a link line.
    pub max_selected: usize,
    /// A lone picture joins the one type left with an odd count (tiles come in pairs) when its
    /// shape distance to that type is at most this many times its distance to the nearest
    /// type. A selection that repaints a face's ground (KShisen's alphabet set: a white face
    /// behind a red numeral instead of a cream one) leaves the tile 8–18 from its type by
    /// shape and as near to a look-alike numeral: its own type measured 1.00–1.08 times the
    /// nearest over the held-out frames with a selection.
    pub odd_join_ratio: f32,
    /// A pixel shows a stipple's colour ([`super::stipple`]: one checkerboard parity of a
    /// cell drawn in one colour) within this, per channel (0–255). A stipple is drawn in one
    /// colour and captures are exact (0 measured on xshisen's stippled selections); lossy
    /// compression blurs a one-pixel checker beyond recognition either way.
    pub stipple_tolerance: u8,
    /// A stipple covers at least this share of its parity's pixels (within
    /// [`ReaderConfig::stipple_tolerance`] of its colour). Measured on xshisen's stippled
    /// selections: 1.0 on all 109 of the fixtures and two held-out sets, 0.88–0.91 with a
    /// removal's link line drawn over the tile.
    pub stipple_cover: f32,
    /// ... and exceeds the share of the other parity's pixels near its colour by at least
    /// this: a stipple covers one parity only. Measured on the same selections: 0.63–1.0
    /// (the kept parity 0.0–0.37 near the stipple's black: the sprites' outlines), 0.68
    /// and more under a line; a ground or a face shows a colour on both parities alike.
    pub stipple_contrast: f32,
    /// A stippled cell is of the type whose tiles' pixels on the kept parity lie within
    /// [`ReaderConfig::different_ceiling`] of its kept pixels and this many times nearer
    /// than any other type's. Measured on xshisen's stippled selections (both tile sets,
    /// four grounds): 0.0 from its type (one sprite, drawn pixel for pixel), 8.5–17.6 from
    /// the next.
    pub stipple_join_ratio: f32,
    /// A board found in the frame (no grid given, no rows or columns hinted) needs at least
    /// this many tiles read, else the frame shows no board: a lattice found from a few
    /// tiles is thin evidence. Measured with truth cells: no board frame of the rendered
    /// fixtures 0..400, 7000..7300 and 9100..9400, fixtures/kshisen or llk-real holds six
    /// tiles or fewer (fixtures/xshisen one, a live end game read on its locked grid); of
    /// 39 frames of a tkinter Shisen-Sho holding six or fewer, none read exactly, and four
    /// read sure and wrong on a lattice of half-tile cells (two to four tiles read).
    pub min_tiles: usize,
    /// A board found in the frame (no rows or columns hinted) shows at least this many tile
    /// types: a repeated decoration (a frame's carving, a ground's pattern) pairs everywhere
    /// with itself as one picture, while a deal holds many. Measured with truth cells: the
    /// fewest types on a board frame are 4 (llk-real, 8 tiles), 6 on rendered fixtures
    /// 0..400 and 17000..17300, 19 on fixtures/kshisen; the end games of two types or fewer
    /// (fixtures/xshisen) are read on the grid the live bot locked on, where this does
    /// not apply.
    pub min_types: usize,
    /// Share of tiles that may be unpaired (odd or lone pictures) before the frame is judged
    /// `not-lianliankan` (most pictures have no twin: a sliding puzzle, a numbers grid).
    pub max_unpaired_share: f32,
    /// Unpaired tiles allowed on a readable board: the selected tile and a hovered one.
    pub max_unpaired: usize,
    /// A type holding at least this many times the median type count (and
    /// [`ReaderConfig::obstacle_min_count`]), and this many times the next smaller type
    /// count, is a crowd, no tile type: a game deals its types alike (2–12 tiles a type on
    /// the KShisen sets, 2–30 on the rendered fixtures), and no type measured holds over
    /// twice the median type's count (rendered 0..400, every KShisen set's truth) on a deal
    /// or early in a game. Late in a game on a large board the median falls while a type
    /// can keep all its tiles (KShisen 26x14 with 148 of 364 tiles gone: 12, 12, 10, 8, …
    /// over a median of 4), but the counts still run down without a jump: the largest step
    /// from one type count to the next smaller measured 2.0 (813 KShisen truth boards, all
    /// sets and fixtures). The cut lies between that and the smallest crowd step measured:
    /// 2.83, a row of 34 alike cells of a window's chrome above a 26x14 deal whose largest
    /// type holds 12 (taken into the extent, it read as one sure tile type at 3.0). A crowd
    /// on the board reads as obstacles, unsure:
    /// no board measured holds more than 6 obstacles (rendered fixtures 0..400), while the
    /// crowds read there were ground (a row of tiles' 3-D sides, a patterned ground, emptied
    /// rows under a row of tiles where no ground shows outside the board) — so one frame
    /// cannot tell a wall of stones from ground, and the bot must not click on it.
    pub obstacle_crowd: f32,
    /// See [`ReaderConfig::obstacle_crowd`].
    pub obstacle_min_count: usize,
    /// A type holding more than this share of the board's tiles (and
    /// [`ReaderConfig::obstacle_min_count`]) is a crowd too, however few types there are:
    /// a panel or a flat stretch laid over the lattice (a game's "Game Over" panel read on
    /// a locked grid: two types of 8 and 56 cells). Largest share of a type of 10 or more
    /// tiles measured: 0.18 on rendered fixtures 0..400, 0.036 on KShisen (the corpus, a
    /// held-out set and fixtures/kshisen); llk-real holds no type of 10.
    pub crowd_share: f32,
    /// Colour gap ([`super::pixels::colour_dist`]) across the shared edge of two cells,
    /// the mean over the edge's blocks, under which the ground of one runs on into the
    /// other. On the KShisen corpus and two held-out sets, emptied cells paired as a type
    /// measure 0.2–3.0 against the ground beside them (16 of 20 under 2.0); of 25 338
    /// tiles beside ground, those whose face shows the ground's colour over half of it
    /// measure more than 2.0.
    pub ground_seam: f32,
    /// Least colour gap ([`super::pixels::colour_dist`], as [`ReaderConfig::ground_seam`]
    /// measures it) between a lone picture and a neighbour read as ground, above which the
    /// lone picture is no ground however near the ground it lies by mean colour and
    /// texture: an object on the board (a crate, a stone) meets the ground with a seam on
    /// every side, a cell the game emptied runs on from the ground but for the bands its
    /// neighbours' shadows cover. Stones grounded in 16 sure misreadings of rendered boards
    /// (four sets of 300 and 400) measured 22.0–96.2; the lone pictures grounded in the
    /// frames of those sets read exactly, trial lattices included, 0.6–0.8 at the median
    /// and 7.5–19.6 at the 99th percentile (8 of 1 480 above 20.0, on frames read
    /// exactly either way).
    pub lone_ground_seam: f32,
    /// A lone picture clearly apart from the ground by mean colour or texture
    /// ([`super::reader`]'s `Ground::far`) whose blocks show the ground, lit or in shadow, in
    /// less than this share is an object drawn over the ground (a stone, a crate), never
    /// grounded for lying nearer the ground than the tiles. Measured on rendered fixtures
    /// 0..400: the stones and crates read as ground show 0.00–0.10 of their blocks in the
    /// ground's colour; the readings are the same with 0.2 and 0.3, one stone more is
    /// grounded at 0.1.
    pub object_ground_share: f32,
    /// Share of a cell's blocks that must show the colour of the ground beside it (lit or
    /// in shadow; the per-channel median of that cell's blocks) for that ground to run on
    /// into it, counted away from the bands ([`ReaderConfig::overhang_share`] deep) on the
    /// sides where a tile stands, which its 3-D side and shadow cover on an emptied cell.
    /// With the ground cell's mean colour over every block (the rule before), a column of
    /// cells emptied between two tiles over a plain ground showed 30 of 100 blocks in it
    /// (the mean pulled toward the tiles' side and shadow) and paired as a type of tiles;
    /// with the median but every block, tiles' faces in a shade of the ground let it in.
    /// Measured on the KShisen corpus, three held-out sets, fixtures/kshisen, llk-real and
    /// rendered 0..400: no reading made worse at 0.8.
    pub clear_ground_share: f32,
    /// Times a found board's extent is trimmed again after reading on the trimmed grid:
    /// read on a smaller grid, the ring around it is other cells, the ground learnt there
    /// can run into more of the edge lines, and they show no board either (two columns of
    /// a photo ground beside a board, paired as its leaves and berries, read as ground only
    /// once the first trim had moved the ring).
    pub extent_trims: usize,
    /// Share of the lattice sheet's paired pictures a found board must hold, more than
    /// this: a board is where the frame's tiles lie, and where most pictures that pair lie
    /// outside the extent found, the lattice is not the tiles' (a third of their pitch, whose
    /// cells pair as parts of one sprite all over the frame) or the extent is not the board.
    /// Measured with the stage reader on the rendered fixtures 0..400, fixtures/kshisen and
    /// /xshisen, llk-real, heldout33, heldout26 size 0 and xshisen-x4 (about 1 000 frames):
    /// every reading exact or unsure held 0.75 of them or more (nearly all held every one);
    /// of the eight that held 0.56 or less, seven were refused on other grounds and one was
    /// a sure misreading, a 1 × 5 board on a lattice of a third of the tiles' pitch (0.22).
    pub board_pair_share: f32,
    /// Two obstacle cells show one look when their pictures (by [`super::pictures::distance`])
    /// are nearer than this. A game draws its obstacles from one sprite: over the rendered
    /// fixtures 0..400 (106 readings with two obstacles or more) two obstacles of a frame
    /// measure at most 5.7 apart; tile faces of different types that a misread lattice or
    /// lumped types leave as obstacles (KShisen) measure 10.5 and up, jade's suit tiles
    /// 40–64. With a tint taken out ([`super::pictures::shape_distance`]) those suit tiles
    /// measure 4–6 and would pass for one look.
    pub obstacle_look_gap: f32,
    /// A reading whose obstacles show more looks than this is unsure of them: games draw
    /// obstacles from one sprite, or a few kinds (stones and crates); every rendered reading
    /// with obstacles shows one. Pictures of three or more kinds called obstacles are
    /// tiles the reading could not pair: its lattice or its types are wrong.
    pub max_obstacle_looks: usize,
    /// Cells one reading calls obstacles or ground and another, on the same grid, a tile
    /// type are tiles when their outer rings stand at most this far (median over the cells
    /// of [`super::pictures::frame_distance`]) from the ring the agreed tiles share
    /// (per-block median): a tile set shares one frame (border, bevel, 3-D side), obstacles
    /// and the ground are drawn without it. Where the two readers disagreed so on a deal:
    /// KShisen's tiles 0.0–2.7 (4 frames, live and captured; 0.0–0.1 on 4 frames of its
    /// second set, one of them 72 tiles read as ground), the rendered fixtures' obstacles
    /// 7.7–106 (43 frames of 0..400). Late in a game a tile's ring takes in its neighbours'
    /// 3-D sides and shadows (10–29 on KShisen), so this only settles a disagreement, never
    /// makes obstacles. A tile on the board's edge shows the ground's shadow where interior
    /// tiles show a neighbour (17.1 from the shared ring, four edge tiles of a live KShisen
    /// deal), so each cell is also compared with the agreed tiles whose neighbours are
    /// tiles on the same sides.
    pub obstacle_frame_max: f32,
    /// Cells one reading calls obstacles or ground and another, on the same grid, a tile
    /// type are also tiles when, in each of them, at least this share of the inner pixels
    /// shows the tiles' face (the commonest colour inside the agreed tiles, within
    /// [`ReaderConfig::face_pixel_tol`] in every channel) while the cells both read as
    /// empty show less of it: a tile set prints every symbol on one face, and a symbol
    /// that runs to the tile's edges (leaves, stalks, a picture into the corners) moves
    /// the frame test ([`ReaderConfig::obstacle_frame_max`]) but still leaves the face
    /// between its strokes. Measured with the truth's cells: every tile type of the
    /// rendered fixtures 0..400 shows 0.30 or more (10232 types of frames), of a game whose
    /// tiles are drawn edge to edge 0.40 or more (346 types of 29 deals; the cells whose
    /// symbols run to the edges measured 4.4–22.9 from the shared frame); the rendered
    /// obstacles at most 0.13 (428 cells, the dark theme's grey stones beside a grey-blue
    /// face the highest). Painted faces (a tile set whose every face is a different
    /// picture) show little of any one colour and are left to the frame test. The stage
    /// reader keeps as tiles, by the same share, a group its obstacle tests name (no block
    /// of clean face: eight bamboo sticks to the tile's edges showed 0.78).
    pub contested_face_share: f32,
    /// How near the face colour (in every channel) a pixel counts as showing the face, for
    /// [`ReaderConfig::contested_face_share`]: the rendered fixtures' tile types, JPEGs of
    /// quality 60 and up among them, all show 0.30 or more of their face within it.
    pub face_pixel_tol: f32,
    /// A group whose face corners all miss the face (`vision::obstacles`), on a board whose
    /// cells share a frame, is a tile and no obstacle when other groups lack that frame too
    /// and its cells' median distance from it is at most this many times the farthest of
    /// theirs: a picture that fills its corners on a tile small enough that pictures run
    /// into the band along its sides. Measured (median distance from the shared frame, the
    /// bound for lacking it 16): a KShisen 30x16 deal at 32 x 40 px, six large circles
    /// covering all four corners 26.3 against 16.3-26.2 for four other types (1.00 times);
    /// rendered stones 26.7 against tiles' 18.2 (1.47) and 71 against 17 (4.2).
    pub covered_face_frame_ratio: f32,
    /// Share of a ring cell (along each axis) that must lie inside the frame for the cell
    /// to be described by that part, on a grid found in the frame: the ring around a board
    /// is where the ground is learnt, and a board whose margin is narrower than a pitch
    /// leaves the ring's side cells partly past the window's edge. Half a cell is more
    /// than a tile's 3-D side and shadow (about a tenth of a pitch on KShisen's tile sets)
    /// and less than the margins measured beside KShisen and xshisen boards (0.75–0.93 of
    /// a pitch inside the window where the ring ran past it).
    pub ring_min_inside: f32,
    /// Cells one reading calls obstacles and another empty show the ground when each lies
    /// no farther from the cells both read as empty than this many times the 90th
    /// percentile of those cells' distances to their nearest neighbour among them (photo and
    /// textured grounds differ from cell to cell; an obstacle is drawn over the ground).
    /// Measured where the two readers disagreed so, each cell at its nearest whole or
    /// without a tile's side ([`ReaderConfig::overhang_share`]): KShisen ground the legacy
    /// chain called obstacles or tiles 0.0–1.22 (360 cells of six sets, one more at 2.07, a
    /// textured ground under a shadow's tail); the rendered fixtures' obstacles 4.73 and up
    /// (9 frames of 0..400). The cut lies between them on a log scale. The stage reader
    /// uses the same test on the cells it reads lone, and on the groups of a board's edge
    /// line, against the cells it saw as ground.
    pub ground_apart_ratio: f32,
    /// Share of a cell's size, on the side of a neighbouring tile, that may show that
    /// tile's 3-D side and drop shadow rather than the ground: a cell next to a tile is also
    /// compared with the ground without this band. Measured past KShisen's 3-D tiles: the
    /// side 16–18 % of the pitch, its shadow fading out by 36–40 % (three tile sets, pitches
    /// 32–50 px). The rest of the cell still holds 60 % of any sprite drawn in it, which an
    /// obstacle fills.
    pub overhang_share: f32,
    /// A type shows one sprite when no edge of its tiles' spanning tree (by
    /// [`super::pictures::distance`]) is longer than this: true types measure 6.1 at most
    /// (rendered 0..200, 92 KShisen frames, llk-real), different sprites of one tile set 9
    /// and up. Decides where two sure readings' types cross ([`super::verdict::crossing`]).
    pub one_sprite_edge: f32,
    /// A type whose pictures fall into several groups is as many types when each edge of
    /// its spanning tree ([`super::pictures::distance`]) cut between them is at least this.
    /// Measured on the default reader's readings with both groups even and of 4 or more
    /// tiles: one type in truth, 6.1 at most (rendered 0..200, KShisen's 92 frames of two
    /// sets, llk-real); two colourings of one letter taken for one type (KShisen's alphabet
    /// tiles), 45.7–46.4; three characters that differ in a stroke or two taken for one type
    /// (xshisen's pixel-art tile set, 16 tiles of each), 36.2 and 72.5.
    pub type_split_gap: f32,
    /// ... and at least this many times the longest edge left inside the groups: one
    /// type, 1.6 at most (as above); two or three, 91–93 and (within 0.0) unbounded.
    pub type_split_ratio: f32,
    /// ... and each group even and at least this many tiles: a game tints one tile for a
    /// selection and two for a removal, so two tinted tiles of a type of four are no
    /// second type.
    pub type_split_min_part: usize,
    /// Share of a parity's neighbour pairs whose second cell is its first cell's usual
    /// partner, at or above which the lattice cuts tiles in two along that axis
    /// ([`super::halves`]). Not all: a symbol's stroke reaching into a tile's lower half
    /// makes that half a type of its own in a few tiles (rendered pastel boards at half
    /// pitch: 74 of 82 and 22 of 25 kept); random neighbours, the other parity, kept 17–64 %
    /// there. [`super::halves::lumps`] asks the same of a coarse lattice's types, place by
    /// place in their blocks: a coarse reading of whole tiles showed 1.00 (two frames) and
    /// 0.91 on a fine lattice a little off the tiles' lines (0.73 judged by whole blocks).
    pub halves_kept: f32,
    /// Repeated types (two or more pair starts) a parity must show before
    /// [`ReaderConfig::halves_kept`] is judged: with fewer, chance keeps partners.
    pub halves_min_types: usize,
    /// How far (mean absolute difference per channel) a face corner may be from the face colour
    /// and still count as showing it, roughly and cleanly. A tile shows its face roughly in two
    /// corners (a symbol reaches two at most; a lattice a pixel or two off moves a corner patch
    /// onto the rounded edge) and cleanly in at least one: on the 16 fixtures measured (all four
    /// themes and backgrounds, JPEG and PNG) two corners of every tile come within 9 of the face
    /// mode. The dark theme's grey stones come within 24–30 of its grey-blue face in two corners
    /// (their light falls off across the stone) but nowhere within 16, so the rough test alone
    /// takes them for tiles; crates are 100 and more off everywhere.
    pub face_rough: f32,
    /// See [`ReaderConfig::face_rough`].
    pub face_clean: f32,
    /// How near the face colour an inner block must be to show the face itself, for a group
    /// that both the frame and the face-corner tests (`vision::obstacles`) name alone as
    /// lacking the tiles' body. Within [`ReaderConfig::face_clean`], the dark theme's grey
    /// stones show "face" in up to 0.54 of their blocks (their grey lies near the grey-blue
    /// face); within 5 up to 0.05, within 3 none: measured on the 76 groups both tests name
    /// in the rendered fixtures 0..200 and 2200..2400 (75 obstacle groups, every one 0
    /// within 3, and one mahjong pair of tiles, 0 too). A flat face between the strokes of
    /// a symbol that covers its corners and sides (a constructed tile) shows in 0.24 of the
    /// blocks within 3 (0.44 within 5: blocks across a stroke's edge fall out). No KShisen
    /// group of the sets measured (fixtures, heldout24, heldout25) is named by both tests.
    pub face_exact: f32,
    /// A paired group the face-corner and frame tests (`vision::obstacles`)
    /// call obstacles is walled off by the stage reader only when, in the median of its
    /// cells, at most this share of the inner blocks shows the face (the commonest block
    /// colour of the board's pictures, within [`ReaderConfig::face_clean`]): when the face
    /// shows nowhere. Measured over the stage reader's readings: rendered obstacles 0.0 in
    /// 48 of the 64 groups those tests find (rendered 0..200), 0.05–0.71 the rest; KShisen
    /// tile types they take for obstacles 0.06–0.31 (a landscape covering the face 0.06, a
    /// red-framed letter on a wood face 0.19–0.21, a large circle 0.24–0.31). One frame
    /// cannot tell a tile whose picture covers its face from an obstacle, so those stay
    /// tiles.
    pub obstacle_face_share: f32,
    /// The one type of odd count on a board, with every picture typed and none of the
    /// type's cells off the board, is walled off as obstacles by the stage reader when in
    /// the median of its cells at most this share of the inner blocks shows the face within
    /// [`ReaderConfig::face_exact`], and every other type shows more. Tiles come in pairs
    /// and stones in any number; the dark theme's grey stones lie near its grey face, so
    /// the corner and frame tests miss them. Measured over the stage reader's readings with
    /// one odd type (rendered 0..400 and 7000..7300): the 12 stone groups 0.0, other types'
    /// least 0.01–0.12; left alone, a type made odd by a tile read as ground 0.08 (least
    /// 0.08), and two groups tied with a type at 0.0 (stones; two stones and a tile).
    pub odd_wall_face_share: f32,
    /// Where the stage reader refuses the board on the lattice the edge profiles gave, it
    /// reads again on lattices up to this many times that pitch on each axis no hint fixes
    /// (cells kept tile-shaped): the profiles can take a period inside the tiles for the
    /// cells'. Measured on rendered 0..400: 12 boards refused on lattices at a half or a
    /// third of the tiles' pitch (on one axis or both, up to 24x36 cells for 8x12 tiles);
    /// on the multiples 7 read exact, one a sure misreading (a lone stone read as ground).
    pub lattice_multiple_max: usize,
    /// Without hints, the stage reader works on the part of the window within this many
    /// cells of the cells that lie clearly off the ground learnt from the window's edge
    /// ([`ReaderConfig::busy_excess`]), bars across the window left out: the ground farther
    /// out tells nothing the ground near the board does not, and a board in a full-screen
    /// capture holds a tenth of the lattice's cells (the bench's 19x11 board: 209 of 1830),
    /// whose grouping grows with the square of their number. Two cells: the phase moves the
    /// lattice by up to half a cell, and a ring of ground must remain around the board.
    pub extent_margin: usize,
    /// Where one axis of the window shows no period and the other does, the stage reader
    /// reads on the lattices of this many of the first axis's strongest repeats among the
    /// pitches that make tile-shaped cells with the other's (and of the other's pitch).
    pub one_axis_candidates: usize,
    /// On those lattices the twins refine both pitches within this many pixels either way
    /// (wider than [`ReaderConfig::pitch_search`]): a weak repeat's peak lies up to a pixel
    /// off the tiles' pitch (measured 0.7 px on 57 and 1.0 px on 115).
    pub one_axis_pitch_px: f32,
    /// A reading on such a lattice is kept only with at least this many tile types: with
    /// one axis showing no period, and a pitch searched that wide, the twins of a few
    /// repeated pieces of chrome line up too (a dialog's panel read as a board of two
    /// types, its left and right borders, four cells each). The phone boards this path
    /// reads show 4 and 5.
    pub one_axis_min_types: usize,
    /// A cell lies clearly off the ground, for [`ReaderConfig::extent_margin`], when its
    /// mean colour or its spread exceeds the ground model's tolerance plus
    /// [`ReaderConfig::ground_margin`] by more than this. On the bench's noisy ground the
    /// cells of ground the model does not hold exceed it by at most 2.4 (18 of 1830), the
    /// tiles by 67 and more (plain ground) and 83 and more (noisy ground).
    pub busy_excess: f32,
    /// A line of the sheet busy ([`ReaderConfig::busy_excess`]) in at least this share of
    /// its cells is a bar across the window (a title or status bar), left out of the part
    /// the stage reader works on unless it runs along the board's other busy cells.
    pub bar_share: f32,
    /// The part of the window [`ReaderConfig::extent_margin`] keeps is kept only when at
    /// least this share of the cells it leaves out hold the ground (within
    /// [`ReaderConfig::ground_margin`]), not only lie short of clearly off it: faint tiles
    /// (a few light symbols on a light ground) lie between the two. On the bench frames the left-out
    /// cells held 96 % (plain ground: all but the status bar) and 99 % (noisy ground).
    pub left_out_ground: f32,
    /// The part of the window [`ReaderConfig::extent_margin`] keeps is kept only when it
    /// leaves out at least this share of the sheet's cells (a quarter saves ~45 % of the
    /// grouping, which grows with the square of the cells): the phase and the ground are
    /// then learnt from fewer cells, and a board that nearly fills the window gains little
    /// from it. On a noisy ground a part that left out a twentieth of the cells moved the
    /// phase by 1.6 px, enough to pair a board's grey stones as a type.
    pub left_out_min: f32,
    /// A block of a cell (of a [`ReaderConfig::blocks`] split) shows the ground remembered
    /// there ([`super::ground_memory`]) when its mean lies within this (mean absolute RGB
    /// difference, 0–255) of the remembered block's. An emptied cell's blocks on a static
    /// ground measure 0 away from its neighbours' 3-D sides and shadows, which reach 5–150
    /// where a neighbour came or went.
    pub remembered_gap: f32,
    /// A cell shows its remembered ground when at least this share of its inner blocks, and
    /// of the blocks along each of [`ReaderConfig::remembered_sides`] sides of its outer
    /// ring, lie within [`ReaderConfig::remembered_gap`]. Measured on 126 cells empty in two
    /// frames of one KShisen deal six removals apart (its photo, gradient and textured
    /// grounds): inner share 0.70–1.0, 3 or 4 sides alike (a neighbour gone changes one
    /// side and the shadow band beside it); on 3518 cells holding a tile in the first
    /// frame and empty in the second: at most 2 sides alike (a tile's border runs all
    /// round it), inner share 0.37 at the 99th percentile and 1.0 for a blank face on a
    /// plain ground of its own colour.
    pub remembered_share: f32,
    /// See [`ReaderConfig::remembered_share`]: sides of the ring (of four) that must show
    /// the remembered ground.
    pub remembered_sides: usize,
}

impl ReaderConfig {
    /// Whether a type of `n` tiles among a board's `tiles` holds most of them, a crowd
    /// however few types there are ([`ReaderConfig::crowd_share`],
    /// [`ReaderConfig::obstacle_min_count`]).
    pub fn crowds_by_share(&self, n: usize, tiles: usize) -> bool {
        n >= self.obstacle_min_count && n as f32 > self.crowd_share * tiles as f32
    }
}

impl Default for ReaderConfig {
    fn default() -> Self {
        ReaderConfig {
            min_pitch: 14.0,
            max_pitch: 220.0,
            min_periodicity: 0.08,
            divisor_keep: 0.4,
            max_cell_aspect: 2.0,
            short_comb_margin: 0.1,
            edge_min: 24,
            pitch_search: 0.01,
            phase_sweeps: 6,
            phase_seed_gain: 2.0,
            phase_lone_margin: 2,
            blocks: 10,
            inset: 0.14,
            same_floor: 2.5,
            different_ceiling: 16.0,
            min_gap_ratio: 1.8,
            flat_spread: 6.0,
            ground_margin: 6.0,
            busy_ground_spread: 20.0,
            ground_share: 0.6,
            shadow_min: 0.5,
            blank_frame_ratio: 5.0,
            tile_frame_exact: 3.0,
            lone_frame_apart: 40.0,
            lone_frame_ratio: 8.0,
            blank_shared_ratio: 2.5,
            ground_frame_ratio: 5.0,
            selected_frame_gap: 10.0,
            odd_join_ratio: 1.25,
            shape_join_ratio: 2.5,
            stray_stone_ratio: 4.0,
            lone_twin_ratio: 12.0,
            max_selected: 2,
            stipple_tolerance: 8,
            stipple_cover: 0.8,
            stipple_contrast: 0.4,
            stipple_join_ratio: 2.5,
            min_tiles: 6,
            min_types: 2,
            object_ground_share: 0.2,
            max_unpaired_share: 0.4,
            max_unpaired: 2,
            obstacle_crowd: 2.5,
            obstacle_min_count: 10,
            crowd_share: 0.5,
            ground_seam: 2.0,
            lone_ground_seam: 20.0,
            clear_ground_share: 0.8,
            extent_trims: 2,
            board_pair_share: 0.5,
            obstacle_look_gap: 9.0,
            max_obstacle_looks: 2,
            obstacle_frame_max: 4.0,
            covered_face_frame_ratio: 1.2,
            contested_face_share: 0.25,
            face_pixel_tol: 24.0,
            ring_min_inside: 0.5,
            ground_apart_ratio: 2.5,
            overhang_share: 0.4,
            one_sprite_edge: 8.0,
            type_split_gap: 20.0,
            type_split_ratio: 8.0,
            type_split_min_part: 4,
            halves_kept: 0.85,
            halves_min_types: 4,
            face_rough: 30.0,
            face_clean: 16.0,
            face_exact: 3.0,
            obstacle_face_share: 0.03,
            odd_wall_face_share: 0.0,
            lattice_multiple_max: 3,
            extent_margin: 2,
            one_axis_candidates: 3,
            one_axis_pitch_px: 1.5,
            one_axis_min_types: 4,
            busy_excess: 6.0,
            bar_share: 0.9,
            left_out_ground: 0.8,
            left_out_min: 0.25,
            remembered_gap: 6.0,
            remembered_share: 0.6,
            remembered_sides: 3,
        }
    }
}
