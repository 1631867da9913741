//! Snapshots of the event stream for small tricky inputs.

mod common;

use common::log;

#[test]
fn results_need_word_boundaries() {
    insta::assert_snapshot!(log(b"1. 1-18 1-1"));
}

#[test]
fn strength_marks_and_variations() {
    insta::assert_snapshot!(log(
        b"1.32-28!? 19-23(!?!!!) ( ! ) 2.28x19 (2. 27-22? $14 (2. 33-28)) *"
    ));
}

#[test]
fn move_numbers() {
    insta::assert_snapshot!(log(
        b"1. 32-28 1... 19-23 2. ... 17-21 3.. 33-29 4. {c} ... 5. 1-0"
    ));
}

#[test]
fn nested_comment_recovery() {
    insta::assert_snapshot!(log(b"1. 33-29 19-23 2. 35-30 { nested { comment } } 1-0"));
}

#[test]
fn tags_with_spaces_escapes_and_movetext_characters() {
    insta::assert_snapshot!(log(br#"[Event       "Open (A) {x} ;y"]
[White "Kees \"the bear\" K."][Black ""] [Round "?"]
[Date "25.11.2000"]
32-28 *"#));
}

#[test]
fn games_are_separated_by_results_or_tags() {
    insta::assert_snapshot!(log(
        b"[A \"1\"]\n1. 32-28 2-0 19-23 0-2\n[B \"2\"]\n1. 33-29\n[C \"3\"]\n1. 34-30"
    ));
}

#[test]
fn bom_crlf_and_line_comments() {
    insta::assert_snapshot!(log(
        b"\xEF\xBB\xBF% header\r\n[Event \"x\"]\r\n1. 32-28 ; why\r\n19-23 % here too\r\n*\r\n"
    ));
}

#[test]
fn unknown_moves_padding_and_forms() {
    insta::assert_snapshot!(log(
        b"1. - - 2. --  3. 1- 6 47x 9 4. 3228 27:18 06-11 c3-c4 c3xc5xe5 a3b4 j10 *"
    ));
}

#[test]
fn thaayam_movetext() {
    insta::assert_snapshot!(log(
        b"[Variant \"Thaayam\"]\n1. S [1 4 2] in c1+4+2 N [3] ~4 2. S [8 3] Tc5+8+4-d2 E [1 1] off c1+1xd2 S+W-"
    ));
}

#[test]
fn stray_text_and_junk() {
    insta::assert_snapshot!(log(
        b"1. 11-15 23-18 2. 8-11Redoverstepped the time. White resigns 0-1 # . 1-0"
    ));
}

#[test]
fn setup_commands() {
    insta::assert_snapshot!(log(
        br#"1. 32-28 /FEN "W:W31,K15:B14."/ 19-23 /FEN "a \"b\""/ /FEM "x"/ /FEN "y" *"#
    ));
}

#[test]
fn unbalanced_variations() {
    insta::assert_snapshot!(log(
        b"1. 32-28 ) 19-23 (18-23 (17-21 1-0 *\n[Event \"next\"] *"
    ));
}

#[test]
fn comments_before_tags_belong_to_the_header() {
    insta::assert_snapshot!(log(
        b"{ file note } [Event \"a\"] { opening } 1. 32-28 *\n% trailer\n"
    ));
}

#[test]
fn unterminated_comment_stops_at_the_next_game() {
    insta::assert_snapshot!(log(b"1. 32-28 { oops\n19-23\n[Event \"b\"]\n1. 33-29 *"));
}

#[test]
fn bad_tags() {
    insta::assert_snapshot!(log(
        b"[event \"x\"]\n[Site Amsterdam]\n[Round \"3\n[White \"a\"\n1. 32-28 *"
    ));
}
