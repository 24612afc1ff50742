//! Errors shared by several modules. Each module's own failures have their own types
//! (`board::ParseError`, `plan::GenError`, …); what is here is common to many.

use std::fmt;

/// A name that is not one of a fixed set (a gravity mode, a strategy, a theme …): what was
/// asked for, what was given, and every name accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What kind of name it is: "gravity mode", "strategy".
    pub what: &'static str,
    /// The text given.
    pub given: String,
    /// Every name accepted, in the order they are listed.
    pub expected: Vec<&'static str>,
}

impl UnknownName {
    /// `given` is not one of `expected`.
    pub fn new(
        what: &'static str,
        given: &str,
        expected: impl IntoIterator<Item = &'static str>,
    ) -> UnknownName {
        UnknownName {
            what,
            given: given.to_string(),
            expected: expected.into_iter().collect(),
        }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}; expected one of {}",
            self.what,
            self.given,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// Shows an error followed by each of its causes, separated by ": " — the one-line form
/// the command line prints ("reading frame f.png: truncated PNG"), for messages the library
/// writes itself (logs, summaries).
pub struct Chain<'a>(pub &'a (dyn std::error::Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(c) = cause {
            write!(f, ": {c}")?;
            cause = c.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] Inner);

    #[derive(Debug, thiserror::Error)]
    #[error("inner")]
    struct Inner;

    #[test]
    fn chain_shows_every_cause() {
        assert_eq!(Chain(&Outer(Inner)).to_string(), "outer: inner");
        assert_eq!(Chain(&Inner).to_string(), "inner");
    }
}
