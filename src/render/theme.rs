//! Looks: the colours of a tile face, its 3-D edge, the board background and the window
//! chrome. Real games differ mostly in these, so vision is tested across all of them.

use super::paint::{shade, Rgb};
use crate::error::UnknownName;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A family of looks, each modelled on a kind of real game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// Light beige tiles with a wooden edge on a steel-blue board, like QQ 连连看.
    #[default]
    Classic,
    /// Slate tiles on a near-black board: low face/background contrast.
    Dark,
    /// White, very rounded tiles with soft borders on a pink board: low tile/background
    /// contrast at the edges.
    Pastel,
    /// Ivory mahjong tiles with a thick green back on green felt.
    Mahjong,
}

/// Obstacles are drawn as one of these, depending on the theme.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ObstacleLook {
    /// A wooden crate.
    Crate,
    /// A grey stone block.
    Stone,
}

/// The concrete colours of a theme.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// The tile's face.
    pub face: Rgb,
    /// The tile's outline.
    pub border: Rgb,
    /// The 3-D edge on the right and bottom of a tile.
    pub side: Rgb,
    /// The edge's thickness as a fraction of the tile's smaller side.
    pub depth: f32,
    /// Rounded-corner radius as a fraction of the tile's smaller side.
    pub corner: f32,
    /// The board background; the window uses a shade of it.
    pub background: Rgb,
    /// Title and status bars.
    pub chrome: Rgb,
    /// Text on the title and status bars.
    pub chrome_text: Rgb,
    /// Outline drawn around symbols: dark on light faces, light on dark ones.
    pub outline: Rgb,
    /// The game's own "selected tile" and "link" colours.
    pub highlight: Rgb,
    /// The line joining a removed pair.
    pub link: Rgb,
    /// How obstacles are drawn.
    pub obstacle: ObstacleLook,
}

impl Theme {
    /// Every theme, in the order fixtures cycle through them.
    pub const ALL: [Theme; 4] = [Theme::Classic, Theme::Dark, Theme::Pastel, Theme::Mahjong];

    /// The name used on the command line and in truth files.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Classic => "classic",
            Theme::Dark => "dark",
            Theme::Pastel => "pastel",
            Theme::Mahjong => "mahjong",
        }
    }

    /// The theme's colours.
    pub fn style(self) -> Style {
        match self {
            Theme::Classic => Style {
                face: [246.0, 236.0, 205.0],
                border: [140.0, 105.0, 55.0],
                side: [196.0, 146.0, 70.0],
                depth: 0.1,
                corner: 0.08,
                background: [48.0, 76.0, 112.0],
                chrome: [226.0, 232.0, 240.0],
                chrome_text: [30.0, 30.0, 40.0],
                outline: [50.0, 40.0, 30.0],
                highlight: [255.0, 150.0, 20.0],
                link: [230.0, 30.0, 30.0],
                obstacle: ObstacleLook::Crate,
            },
            Theme::Dark => Style {
                face: [70.0, 76.0, 90.0],
                border: [20.0, 22.0, 28.0],
                side: [40.0, 44.0, 54.0],
                depth: 0.07,
                corner: 0.14,
                background: [24.0, 26.0, 32.0],
                chrome: [44.0, 46.0, 54.0],
                chrome_text: [210.0, 215.0, 225.0],
                outline: [235.0, 235.0, 240.0],
                highlight: [80.0, 220.0, 255.0],
                link: [255.0, 230.0, 60.0],
                obstacle: ObstacleLook::Stone,
            },
            Theme::Pastel => Style {
                face: [255.0, 251.0, 246.0],
                border: [214.0, 186.0, 200.0],
                side: [236.0, 206.0, 220.0],
                depth: 0.06,
                corner: 0.2,
                background: [246.0, 214.0, 226.0],
                chrome: [255.0, 240.0, 246.0],
                chrome_text: [120.0, 70.0, 100.0],
                outline: [110.0, 90.0, 110.0],
                highlight: [120.0, 200.0, 120.0],
                link: [160.0, 60.0, 200.0],
                obstacle: ObstacleLook::Crate,
            },
            Theme::Mahjong => Style {
                face: [250.0, 246.0, 228.0],
                border: [170.0, 160.0, 130.0],
                side: [40.0, 120.0, 76.0],
                depth: 0.14,
                corner: 0.1,
                background: [28.0, 92.0, 56.0],
                chrome: [90.0, 50.0, 30.0],
                chrome_text: [250.0, 230.0, 190.0],
                outline: [40.0, 30.0, 20.0],
                highlight: [255.0, 220.0, 40.0],
                link: [250.0, 60.0, 40.0],
                obstacle: ObstacleLook::Stone,
            },
        }
    }
}

impl Style {
    /// The window around the board: a little darker than the board itself, as game windows
    /// frame their play area.
    pub fn window(&self) -> Rgb {
        shade(self.background, -0.18)
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownName::new("theme", s, Theme::ALL.map(|t| t.name())))
    }
}
