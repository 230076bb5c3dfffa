//! Characters that are invisible or steer how text around them is shown.

/// Unicode's general categories Cf (format), Zl (line separator) and Zp (paragraph
/// separator), and the Variation_Selector property: characters a reader cannot see that
/// reorder text (bidi controls), hide text (tags, zero-width characters), break lines
/// where a terminal does not, or change how the character before them is drawn.
/// Controls (Cc) are `char::is_control`.
///
/// Cf is from Unicode 16.0.0's DerivedGeneralCategory.txt (unchanged since 15.0); a test
/// compares the whole set with the tables of the regex crate.
pub fn is_invisible(c: char) -> bool {
    // Everything below U+00AD is ASCII or Latin-1 (controls aside): the common case.
    (c as u32) >= 0xAD
        && matches!(c as u32,
            // Cf
            0x00AD | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2
            | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
            | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F
            // Zl, Zp
            | 0x2028 | 0x2029
            // Variation selectors (Mongolian free ones, VS1-16, VS17-256)
            | 0x180B..=0x180D | 0x180F | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF)
}

#[cfg(test)]
mod tests {
    use super::is_invisible;
    use regex_syntax::hir::{Class, HirKind};

    #[test]
    fn is_exactly_cf_zl_zp_and_the_variation_selectors() {
        let hir = regex_syntax::parse(r"[\p{Cf}\p{Zl}\p{Zp}\p{Variation_Selector}]").unwrap();
        let HirKind::Class(Class::Unicode(class)) = hir.kind() else { panic!("{hir:?}") };
        let unicode: Vec<char> = class.iter().flat_map(|r| r.start()..=r.end()).collect();
        let ours: Vec<char> = (0..=0x10FFFF).filter_map(char::from_u32).filter(|c| is_invisible(*c)).collect();
        assert_eq!(ours, unicode);
    }
}
