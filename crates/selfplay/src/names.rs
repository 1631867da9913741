//! Fictional people, places and dates for the tags of generated games.
//!
//! Every name is put together from a given name and a family name drawn from short lists, so
//! the players are invented; each game's pool of players, site and dates follow from the seed.

use crate::rng::Rng;

const TAMA_GIVEN: [&str; 20] = [
    "Aram", "Narek", "Tigran", "Ani", "Lilit", "Gohar", "Vahe", "Karen", "Armen", "Siranush",
    "Hasmik", "Davit", "Levon", "Mariam", "Nune", "Arpi", "Hayk", "Sona", "Gevorg", "Anahit",
];
const TAMA_FAMILY: [&str; 20] = [
    "Avetisyan",
    "Sargsyan",
    "Melikyan",
    "Ghazaryan",
    "Harutyunyan",
    "Mkrtchyan",
    "Vardanyan",
    "Karapetyan",
    "Babayan",
    "Danielyan",
    "Hovhannisyan",
    "Khachatryan",
    "Grigoryan",
    "Petrosyan",
    "Manukyan",
    "Zakaryan",
    "Abrahamyan",
    "Simonyan",
    "Torosyan",
    "Galstyan",
];
const TAMA_SITES: [&str; 8] = [
    "Yerevan", "Gyumri", "Vanadzor", "Dilijan", "Goris", "Sevan", "Ijevan", "Ashtarak",
];

/// Russian given names with their grammatical gender (true = feminine).
const RU_GIVEN: [(&str, bool); 20] = [
    ("Ivan", false),
    ("Olga", true),
    ("Pyotr", false),
    ("Anna", true),
    ("Sergei", false),
    ("Tatyana", true),
    ("Mikhail", false),
    ("Yelena", true),
    ("Nikolai", false),
    ("Irina", true),
    ("Dmitri", false),
    ("Svetlana", true),
    ("Alexei", false),
    ("Natalya", true),
    ("Grigori", false),
    ("Vera", true),
    ("Boris", false),
    ("Galina", true),
    ("Yuri", false),
    ("Lyudmila", true),
];
/// Masculine family names; the feminine form adds `a`.
const RU_FAMILY: [&str; 20] = [
    "Sokolov",
    "Lebedev",
    "Kozlov",
    "Morozov",
    "Volkov",
    "Zaitsev",
    "Pavlov",
    "Semyonov",
    "Golubev",
    "Vinogradov",
    "Bogdanov",
    "Vorobyov",
    "Fyodorov",
    "Belov",
    "Tarasov",
    "Belyaev",
    "Komarov",
    "Orlov",
    "Kiselyov",
    "Makarov",
];
const RU_SITES: [&str; 8] = [
    "Kostroma",
    "Vologda",
    "Tver",
    "Kaluga",
    "Ryazan",
    "Pskov",
    "Vyatka",
    "Yaroslavl",
];

const TA_GIVEN: [&str; 20] = [
    "Meena", "Kala", "Murugan", "Selvi", "Anbu", "Valli", "Kannan", "Lakshmi", "Senthil",
    "Kavitha", "Arul", "Malar", "Ilango", "Revathi", "Bharathi", "Tamil", "Velu", "Saroja",
    "Kumaran", "Devi",
];
const TA_INITIALS: [&str; 12] = [
    "A.", "K.", "M.", "R.", "S.", "P.", "V.", "T.", "N.", "G.", "L.", "C.",
];
const TA_SITES: [&str; 8] = [
    "Madurai",
    "Thanjavur",
    "Tirunelveli",
    "Karaikudi",
    "Kumbakonam",
    "Salem",
    "Erode",
    "Dindigul",
];

const INTL_GIVEN: [&str; 20] = [
    "Pieter", "Anouk", "Moussa", "Awa", "Jan", "Sanne", "Mamadou", "Fatou", "Luc", "Claire",
    "Guntis", "Ilze", "Wiktor", "Zofia", "Joost", "Marieke", "Ibrahima", "Aminata", "Henk",
    "Elodie",
];
const INTL_FAMILY: [&str; 20] = [
    "de Vries", "Jansen", "Diallo", "Ndiaye", "Bakker", "Visser", "Sow", "Fall", "Dubois",
    "Lefebvre", "Ozols", "Kalnins", "Nowak", "Wojcik", "Smit", "Mulder", "Diop", "Sarr", "Bos",
    "Girard",
];
const INTL_SITES: [&str; 8] = [
    "Amsterdam",
    "Utrecht",
    "Dakar",
    "Riga",
    "Lyon",
    "Warsaw",
    "Groningen",
    "Thies",
];

const EN_GIVEN: [&str; 20] = [
    "Thomas",
    "Margaret",
    "William",
    "Elizabeth",
    "George",
    "Mary",
    "Arthur",
    "Edith",
    "Harold",
    "Dorothy",
    "Albert",
    "Florence",
    "Walter",
    "Agnes",
    "Frederick",
    "Winifred",
    "Ernest",
    "Ada",
    "Herbert",
    "Mabel",
];
const EN_FAMILY: [&str; 20] = [
    "Hughes",
    "Barker",
    "Whitworth",
    "Holt",
    "Pickering",
    "Ashworth",
    "Crowther",
    "Bramley",
    "Fenwick",
    "Haigh",
    "Ollerenshaw",
    "Tattersall",
    "Greenhalgh",
    "Sutcliffe",
    "Marsden",
    "Hartley",
    "Lumb",
    "Entwistle",
    "Brindle",
    "Horrocks",
];
const EN_SITES: [&str; 8] = [
    "Manchester",
    "Leeds",
    "Sheffield",
    "Glasgow",
    "Bristol",
    "Newcastle",
    "Norwich",
    "York",
];

/// Where the invented players of an archive come from: the lists their names are put
/// together from, and the towns the games are played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Names {
    /// Armenian names (`Sargsyan, Ani`), Armenian towns.
    Armenian,
    /// Russian names with feminine family names (`Sokolova, Olga`), Russian towns.
    Russian,
    /// Tamil names with an initial (`K. Meena`), towns of Tamil Nadu.
    Tamil,
    /// Names and towns of the international draughts world (the Netherlands, Senegal, Latvia,
    /// France, Poland): the default.
    International,
    /// English and Scottish names and towns.
    English,
}

impl Names {
    /// One player's name.
    fn draw(self, rng: &mut Rng) -> String {
        match self {
            Names::Armenian => format!(
                "{}, {}",
                TAMA_FAMILY[rng.index(TAMA_FAMILY.len())],
                TAMA_GIVEN[rng.index(TAMA_GIVEN.len())]
            ),
            Names::Russian => {
                let (given, feminine) = RU_GIVEN[rng.index(RU_GIVEN.len())];
                let family = RU_FAMILY[rng.index(RU_FAMILY.len())];
                let suffix = if feminine { "a" } else { "" };
                format!("{family}{suffix}, {given}")
            }
            Names::Tamil => format!(
                "{} {}",
                TA_INITIALS[rng.index(TA_INITIALS.len())],
                TA_GIVEN[rng.index(TA_GIVEN.len())]
            ),
            Names::International => format!(
                "{}, {}",
                INTL_FAMILY[rng.index(INTL_FAMILY.len())],
                INTL_GIVEN[rng.index(INTL_GIVEN.len())]
            ),
            Names::English => format!(
                "{}, {}",
                EN_FAMILY[rng.index(EN_FAMILY.len())],
                EN_GIVEN[rng.index(EN_GIVEN.len())]
            ),
        }
    }

    /// The towns games are played in.
    fn sites(self) -> &'static [&'static str] {
        match self {
            Names::Armenian => &TAMA_SITES,
            Names::Russian => &RU_SITES,
            Names::Tamil => &TA_SITES,
            Names::International => &INTL_SITES,
            Names::English => &EN_SITES,
        }
    }
}

/// Players of one generated archive: a fixed pool drawn from the seed, so the same people
/// meet again and again, as in a real club archive.
pub(crate) struct People {
    pub(crate) pool: Vec<String>,
    pub(crate) site: &'static str,
    /// Days since 1970-01-01 of the first game.
    pub(crate) first_day: i64,
}

impl People {
    /// A pool of sixteen players with `names`, from its own generator.
    pub(crate) fn new(names: Names, rng: &mut Rng) -> People {
        let size = 16;
        let mut pool: Vec<String> = Vec::with_capacity(size);
        while pool.len() < size {
            let name = names.draw(rng);
            if !pool.contains(&name) {
                pool.push(name);
            }
        }
        let sites = names.sites();
        let site = sites[rng.index(sites.len())];
        // Some day between 1995-01-01 and the end of 2019.
        let first_day = days_from_civil(1995, 1, 1) + rng.below(25 * 365) as i64;
        People {
            pool,
            site,
            first_day,
        }
    }

    /// `n` distinct players for one game (at most the pool's sixteen).
    pub(crate) fn pick(&self, n: usize, rng: &mut Rng) -> Vec<String> {
        let mut idx: Vec<usize> = (0..self.pool.len()).collect();
        // Partial Fisher–Yates shuffle.
        for i in 0..n.min(idx.len()) {
            let j = i + rng.index(idx.len() - i);
            idx.swap(i, j);
        }
        idx[..n.min(idx.len())]
            .iter()
            .map(|&i| self.pool[i].clone())
            .collect()
    }

    /// The date of game `index` (0-based): three games a day, from the first day on.
    pub(crate) fn date(&self, index: u32) -> String {
        let (y, m, d) = civil_from_days(self.first_day + i64::from(index / 3));
        format!("{y:04}.{m:02}.{d:02}")
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01.
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_round_trip_and_known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        for z in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
    }

    #[test]
    fn pool_is_distinct_and_picks_are_distinct() {
        for names in [
            Names::Armenian,
            Names::Russian,
            Names::Tamil,
            Names::International,
            Names::English,
        ] {
            let mut rng = Rng::new(3);
            let people = People::new(names, &mut rng);
            assert!(names.sites().contains(&people.site));
            let four = people.pick(4, &mut rng);
            for (i, a) in four.iter().enumerate() {
                assert!(!four[i + 1..].contains(a), "{four:?}");
            }
        }
    }
}
