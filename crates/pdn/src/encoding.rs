//! Text that is not UTF-8: Windows-1251 (Cyrillic) or Windows-1252 (Western European).
//!
//! The reader passes raw bytes; decoding happens where text is kept ([`crate::RecordBuilder`])
//! or shown. Both tables map every byte to a distinct character (the few bytes the code pages
//! leave undefined map to the C1 control character of the same number), so decoding never
//! loses information: the original bytes can be recovered from the text and the encoding.

use std::borrow::Cow;

/// The encoding of a piece of text, as guessed by [`guess_encoding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Valid UTF-8 (ASCII included).
    Utf8,
    /// Windows-1251: Russian and other Cyrillic text.
    Windows1251,
    /// Windows-1252, a superset of Latin-1 (ISO 8859-1) for printable characters.
    Windows1252,
}

/// Counts that tell Cyrillic single-byte text from Western text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    ascii_letters: u64,
    high_letters: u64,
}

impl Tally {
    /// Adds the letters of `bytes`.
    pub(crate) fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b.is_ascii_alphabetic() {
                self.ascii_letters += 1;
            } else if b >= 0xC0 || b == 0xA8 || b == 0xB8 {
                self.high_letters += 1;
            }
        }
    }

    /// In Windows-1251 text the letters are the bytes from 0xC0 up (А..я), and words are made
    /// of them entirely; in Western text such bytes are accented letters among ASCII ones. The
    /// text counts as Cyrillic when those bytes are at least as many as the ASCII letters.
    pub(crate) fn encoding(&self) -> Encoding {
        if self.high_letters > 0 && self.high_letters >= self.ascii_letters {
            Encoding::Windows1251
        } else {
            Encoding::Windows1252
        }
    }
}

/// Guesses the encoding of `bytes`: UTF-8 when they are valid UTF-8, else Windows-1251 when
/// they look Cyrillic (see the crate documentation), else Windows-1252.
pub fn guess_encoding(bytes: &[u8]) -> Encoding {
    if std::str::from_utf8(bytes).is_ok() {
        return Encoding::Utf8;
    }
    let mut t = Tally::default();
    t.add(bytes);
    t.encoding()
}

/// Decodes text: UTF-8 is returned as it is; other bytes are decoded as Windows-1251 when they
/// look Cyrillic, else as Windows-1252 (Latin-1). Never fails and never loses information.
///
/// ```
/// assert_eq!(pdn::decode(b"Caf\xe9"), "Café");
/// assert_eq!(pdn::decode(b"\xc8\xe2\xe0\xed\xee\xe2"), "Иванов");
/// assert_eq!(pdn::decode("Иванов".as_bytes()), "Иванов");
/// ```
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    decode_as(bytes, guess_encoding(bytes))
}

/// Decodes `bytes` in the given encoding. With [`Encoding::Utf8`], invalid sequences fall back
/// to [`decode`]'s guess for the whole text.
pub fn decode_as(bytes: &[u8], encoding: Encoding) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(s);
    }
    let table: &[u16; 128] = match encoding {
        Encoding::Utf8 => return decode(bytes),
        Encoding::Windows1251 => &CP1251,
        Encoding::Windows1252 => &CP1252,
    };
    let mut s = String::with_capacity(bytes.len() + bytes.len() / 2);
    for &b in bytes {
        if b < 0x80 {
            s.push(char::from(b));
        } else {
            let c = table[usize::from(b - 0x80)];
            s.push(char::from_u32(u32::from(c)).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
    }
    Cow::Owned(s)
}

/// Windows-1251, bytes 0x80..=0xFF (0x98 is undefined and maps to U+0098).
static CP1251: [u16; 128] = [
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, //
    0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F, //
    0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, //
    0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, //
    0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, //
    0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407, //
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, //
    0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457, //
    0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417, //
    0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F, //
    0x0420, 0x0421, 0x0422, 0x0423, 0x0424, 0x0425, 0x0426, 0x0427, //
    0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F, //
    0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437, //
    0x0438, 0x0439, 0x043A, 0x043B, 0x043C, 0x043D, 0x043E, 0x043F, //
    0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447, //
    0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F, //
];

/// Windows-1252, bytes 0x80..=0xFF (0x81, 0x8D, 0x8F, 0x90, 0x9D are undefined and map to the
/// C1 controls; 0xA0..=0xFF are Latin-1).
static CP1252: [u16; 128] = {
    let mut t = [0u16; 128];
    let c1: [u16; 32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, //
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F, //
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, //
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178, //
    ];
    let mut i = 0;
    while i < 128 {
        t[i] = if i < 32 { c1[i] } else { 0x80 + i as u16 };
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_injective() {
        for table in [&CP1251, &CP1252] {
            let mut seen: Vec<u16> = table.to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 128);
            assert!(seen.iter().all(|&c| c >= 0x80));
        }
    }

    #[test]
    fn guesses() {
        // "Москва" in Windows-1251.
        assert_eq!(
            guess_encoding(b"\xcc\xee\xf1\xea\xe2\xe0"),
            Encoding::Windows1251
        );
        // "Müller" in Latin-1.
        assert_eq!(guess_encoding(b"M\xfcller"), Encoding::Windows1252);
        assert_eq!(guess_encoding("Müller".as_bytes()), Encoding::Utf8);
        assert_eq!(decode(b"\xcc\xee\xf1\xea\xe2\xe0"), "Москва");
        assert_eq!(decode(b"M\xfcller \x80"), "Müller €");
        assert_eq!(decode(b"\xa8\xeb\xea\xe0"), "Ёлка");
    }
}
