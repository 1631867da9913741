//! Bad input never panics: damaged trials give errors or a conversion, never a crash.

use proptest::prelude::*;

const TAMA: &str = "game=Tama\nSTART GAME OPTIONS\nVariant/Wikipedia\nEND GAME OPTIONS\n\
Move=[Move:mover=0,from=8,to=8,actions=[Add:type=Cell,to=8,what=1]]\n\
Move=[Move:mover=0,from=48,to=48,actions=[Add:type=Cell,to=48,what=2]]\n\
Move=[Move:mover=1,from=8,to=16,actions=[Move:typeFrom=Cell,from=8,typeTo=Cell,to=16,decision=true]]\n\
Move=[Move:mover=2,from=48,to=40,actions=[Move:typeFrom=Cell,from=48,typeTo=Cell,to=40,decision=true]]\n\
Move=[Move:mover=1,from=16,to=32,actions=[Remove:type=Cell,to=24],[Move:typeFrom=Cell,from=16,typeTo=Cell,to=32,decision=true],[SetNextPlayer:player=1]]\n\
numInitialPlacementMoves=2\nwinner=1\nendtype=NaturalEnd\nrankings=0.0,1.0,2.0\n";

const THAAYAM: &str = "game=Thaayam\nSTART GAME OPTIONS\nEND GAME OPTIONS\n\
Move=[Move:mover=0,from=25,to=25,actions=[Add:type=Cell,to=25,level=0,what=5,value=1,stack=true]]\n\
Move=[Move:mover=1,actions=[SetStateAndUpdateDice:site=29,state=1],[SetStateAndUpdateDice:site=30,state=0],[SetPending:],[RememberValue:name=null,value=1],[SetNextPlayer:player=1]]\n\
Move=[Move:mover=1,actions=[SetStateAndUpdateDice:site=29,state=1],[SetStateAndUpdateDice:site=30,state=1],[RememberValue:name=null,value=2],[SetNextPlayer:player=1]]\n\
Move=[Move:mover=1,from=25,to=2,actions=[ForgetValue:name=null,value=1],[Move:typeFrom=Cell,from=25,typeTo=Cell,to=2,decision=true],[SetNextPlayer:player=1]]\n\
Move=[Move:mover=1,from=2,to=4,actions=[ForgetValue:name=null,value=2],[Move:typeFrom=Cell,from=2,typeTo=Cell,to=4,decision=true]]\n\
numInitialPlacementMoves=1\nwinner=1\n";

fn exercise(bytes: &[u8]) {
    if let Ok(trial) = ludii::read_trial(bytes) {
        if let Ok(c) = games::games().read_trial(&trial) {
            for off in 0..=c.pdn.len() as u64 + 1 {
                let _ = c.locate(off);
            }
            assert_eq!(pdn::read_all(c.pdn.as_bytes()).len(), 1);
        }
    }
}

#[test]
fn the_samples_convert() {
    for (text, movetext) in [
        (TAMA, "1. a2-a3 a7-a6 2. a3xa5 1-0"),
        (THAAYAM, "S [1 2] in c1+2-e1 S+"),
    ] {
        let t = ludii::read_trial(text.as_bytes()).unwrap();
        let c = games::games().read_trial(&t).unwrap();
        assert!(c.pdn.contains(movetext), "{}", c.pdn);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn damaged_trials_never_panic(
        which in 0usize..2,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = [TAMA, THAAYAM][which].as_bytes().to_vec();
        for (at, b) in edits {
            let i = at.index(bytes.len());
            // Mostly digits and punctuation, so that the damage reaches the fields.
            bytes[i] = b"0123456789,=[]:-\n"[usize::from(b) % 17];
        }
        exercise(&bytes);
        let n = cut.index(bytes.len());
        exercise(&bytes[..n]);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        exercise(&bytes);
    }
}

#[test]
fn an_entry_that_in_would_hide_is_refused() {
    // Player 1 (South) enters on e3 instead of its palace c1.
    let text = THAAYAM
        .replace("from=25,to=2,", "from=25,to=14,")
        .replace("from=25,typeTo=Cell,to=2,", "from=25,typeTo=Cell,to=14,");
    let t = ludii::read_trial(text.as_bytes()).unwrap();
    let err = games::games().read_trial(&t).unwrap_err();
    assert!(err.to_string().contains("palace c1"), "{err}");
    assert!(
        matches!(
            err,
            ludii::ConvertError::BadMove {
                line: 7,
                number: 4,
                ..
            }
        ),
        "{err:?}"
    );
}

/// A Thaayam trial in which Ludii bears a piece off from e1 (site 4, outside the keep) into
/// South's hand (site 25), as its Thaayam allows and the rules do not; East, North and West
/// lose their 3s in between.
fn bear_off_outside_the_keep() -> String {
    let dice = |up: usize| -> String {
        (0..4)
            .map(|i| {
                format!(
                    "[SetStateAndUpdateDice:site={},state={}]",
                    29 + i,
                    u8::from(i < up)
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut lines = vec![
        "game=/lud/board/race/escape/Thaayam.lud".to_string(),
        "START GAME OPTIONS".into(),
        "END GAME OPTIONS".into(),
        "Move=[Move:mover=0,from=25,to=25,actions=[Add:type=Cell,to=25,level=0,what=5,value=1,stack=true]]".into(),
        format!("Move=[Move:mover=1,actions={},[RememberValue:name=null,value=1],[SetNextPlayer:player=1]]", dice(1)),
        format!("Move=[Move:mover=1,actions={},[RememberValue:name=null,value=2],[SetNextPlayer:player=1]]", dice(2)),
        "Move=[Move:mover=1,from=25,to=2,actions=[ForgetValue:name=null,value=1],[Move:typeFrom=Cell,from=25,typeTo=Cell,to=2,decision=true],[SetNextPlayer:player=1]]".into(),
        "Move=[Move:mover=1,from=2,to=4,actions=[ForgetValue:name=null,value=2],[Move:typeFrom=Cell,from=2,typeTo=Cell,to=4,decision=true]]".into(),
    ];
    for player in 2..=4 {
        lines.push(format!(
            "Move=[Move:mover={player},actions={},[RememberValue:name=null,value=3],[SetNextPlayer:player={player}]]",
            dice(3)
        ));
        lines.push(format!(
            "Move=[Move:mover={player},actions=[ForgetValue:name=null,value=3],[Pass:decision=true]]"
        ));
    }
    lines.push(format!(
        "Move=[Move:mover=1,actions={},[RememberValue:name=null,value=2],[SetNextPlayer:player=1]]",
        dice(2)
    ));
    lines.push("Move=[Move:mover=1,from=4,to=25,actions=[ForgetValue:name=null,value=2],[Move:typeFrom=Cell,from=4,typeTo=Cell,to=25,decision=true],[Remove:type=Cell,to=25]]".into());
    lines.push(format!(
        "Move=[Move:mover=2,actions={},[RememberValue:name=null,value=3],[SetNextPlayer:player=2]]",
        dice(3)
    ));
    lines.push(
        "Move=[Move:mover=2,actions=[ForgetValue:name=null,value=3],[Pass:decision=true]]".into(),
    );
    lines.push("numInitialPlacementMoves=1".into());
    lines.join("\n") + "\n"
}

#[test]
fn a_bear_off_outside_the_keep_is_one_diagnostic_in_a_game_that_is_read() {
    let text = bear_off_outside_the_keep();
    let trial = ludii::read_trial(text.as_bytes()).unwrap();
    let c = games::games()
        .read_trial(&trial)
        .unwrap_or_else(|e| panic!("the trial is read: {e}"));
    assert!(
        c.pdn
            .contains("{Ludii bears off from e1 (site 4 to site 25)} off"),
        "{}",
        c.pdn
    );
    // Every turn is kept, the one after the bear-off too.
    assert!(c.pdn.contains("E [3] ~3 *"), "{}", c.pdn);
    let mut reader = pdn::Reader::new(c.pdn.as_bytes());
    let mut referee = referee::Referee::new(games::games(), referee::Settings::default());
    let report = reader.read_game(&mut referee).unwrap().expect("one game");
    assert_eq!(report.diagnostics.len(), 1, "{:?}", report.diagnostics);
    let d = &report.diagnostics[0];
    assert_eq!(d.code.to_string(), "illegal-move");
    assert!(
        d.message.contains("outside the keep") && d.message.contains("e1"),
        "{}",
        d.message
    );
    // The diagnostic leads back to the trial line of Ludii's bear-off.
    let line = c.locate(d.span.start).unwrap().trl_line as usize;
    assert!(text.lines().nth(line - 1).unwrap().contains("from=4,to=25"));
    assert!(reader.read_game(&mut referee).unwrap().is_none());
}
