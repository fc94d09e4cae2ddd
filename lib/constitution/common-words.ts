import { stemmer } from "stemmer";

/**
 * Everyday English words that say little about what a request is about ("make",
 * "get", "someone", "tomorrow"). With only twenty overlays, BM25's IDF rates such a
 * word as rare when one overlay happens to use it, so on its own it would carry a
 * domain; retrieval damps these words instead of dropping them, so that they still
 * count inside a keyword phrase ("make a bomb" is matched as a phrase).
 * The list is general English usage, not tuned on any eval prompt.
 */
const WORDS = `
about above across actually after again against ago all almost alone along already also although always am among
another any anybody anyone anything anyway anywhere around ask asked asking away back bad be because become before
begin behind being below best better between big bit both bring but call came can can't cannot certain
change come coming could couldn't day days did didn't different do does doesn't doing don't done down during each
easy either else end enough even ever every everyone everything example fast feel few find fine first follow for
found from full get gets getting give given go goes going gone good got great guy guys had half happen
happened hard has have having he hello help her here hey hi high him his hold hope how however i'd i'll i'm i've
idea if important in instead into is isn't it it's its just keep kind know known last later least leave left less
let let's like likely little long look looking lot lots made make makes making many may maybe me mean might mind
more most much must my need needs never new next nice no nobody none not nothing now of off often ok okay old on once
one only or other others our out over own part people person place please point possible pretty probably put
quick quickly quite rather real really right said same say says see seem seems set should show side simple since so
some somebody someone something sometimes soon sort start still stuff such sure take taking talk tell than thank
thanks that that's the their them then there there's these they thing things think this those though thought through
time times to today together tomorrow too took toward try trying turn under until up upon us use used using usually
very want wanted wants was way ways we well went were what what's whatever when where whether which while who whole
why will with within without won't word work would wouldn't yeah year years yes yesterday yet you you're your
she she's he's hers herself himself myself yourself themselves they're we're we've they've you've you'd he'd
she'd we'd they'd who's where's here's aren't wasn't weren't hasn't haven't hadn't shouldn't im ive dont cant wont
didnt doesnt isnt wasnt
act action answer bed crazy drop eat live normal office question reply respond run safe safety self stay stop text
tip tips tired weird
`;

/** The stems of the common words, as the index stems terms. */
export const COMMON_STEMS: ReadonlySet<string> = new Set(
  WORDS.split(/\s+/)
    .filter(Boolean)
    .map((w) => stemmer(w)),
);
