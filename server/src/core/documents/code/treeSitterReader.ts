/**
 * Reads job code written in a language parsed by tree-sitter (Scala, Kotlin, Python): the file's tree (re-parsed
 * incrementally while it is edited) is lowered to the shared syntax tree of `jobcode/ir.ts`, and the one extractor
 * every language shares turns it into job-code facts. Nothing here throws: a lowering that fails leaves the file
 * "not analysed" (BFL003) instead of hiding the rest of the project.
 */

import type { Node } from "web-tree-sitter";
import { Extractor } from "../../jobcode/extract";
import type { CodeParseProblem, JobCode } from "../../jobcode/facts";
import type { Member, Stmt } from "../../jobcode/ir";
import { isTestFile } from "../../jobcode/testCode";
import { MAX_NESTING, nestingDepth, parseTree, type TreeSitterLanguage, unavailable } from "../../jobcode/treeSitter";
import { emptyFacts, type FileFacts } from "../../model";
import { LineIndex, type Range } from "../../text";
import { jobApiUsage } from "./jobApi";

/** What a lowering makes of a file. */
export interface Lowered {
  /** Class members (methods, fields, initializers; nested classes and objects as `class` members). */
  members: Member[];
  /** Statements outside any class (a Python module, a Kotlin or Scala script), walked in order as one body. */
  stmts: Stmt[];
  /** Names of the classes, objects and traits the file declares (`Config.GROUP_ID` then reads the constant). */
  classNames: string[];
  /** Names the file calls as its own functions: those are walked from their first call, with its arguments. */
  called: Set<string>;
  /** Parts of the file the lowering could not read (syntax errors, constructs it does not know). */
  problems: CodeParseProblem[];
}

export interface LanguageReader {
  language: TreeSitterLanguage;
  /** Names without which a file holds nothing the rules read: most files of a project skip the parser. */
  relevant: RegExp;
  /** The language calls Beam's Java SDK itself (Scala, Kotlin): its version-sensitive APIs are looked for. */
  callsBeamJava: boolean;
  lower(root: Node, text: string, index: LineIndex): Lowered;
}

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function readTreeSitterCode(file: string, text: string, reader: LanguageReader): FileFacts {
  const facts = emptyFacts(file, reader.language, text);
  if (!reader.relevant.test(text)) return facts;
  const limit = MAX_NESTING[reader.language];
  const depth = limit === undefined ? 0 : nestingDepth(text);
  const why =
    unavailable(reader.language) ??
    (limit !== undefined && depth > limit ? `its brackets nest ${depth} levels deep (more than ${limit})` : undefined);
  const tree = why ? undefined : parseTree(file, reader.language, text);
  if (!tree) {
    const reason = why ?? "the parser gave up on it (it took too long)";
    facts.notAnalysed = [{ range: START, message: `This ${label(reader.language)} file was not analysed: ${reason}.` }];
    return facts;
  }
  const index = new LineIndex(text);
  const lowered = reader.lower(tree.rootNode, text, index);
  const code = extractJobCode(file, text, index, reader.language, lowered);
  facts.code = code;
  if (reader.callsBeamJava) facts.jobApi = jobApiUsage(file, text, index, lowered);
  return facts;
}

/** Runs the shared extractor over a lowered file. */
export function extractJobCode(
  file: string,
  text: string,
  index: LineIndex,
  language: TreeSitterLanguage,
  lowered: Lowered,
): JobCode {
  const extractor = new Extractor(file, text, index, language);
  const script = lowered.stmts.length > 0;
  extractor.members(lowered.members, lowered.classNames, lowered.called, script);
  if (script) extractor.script(lowered.stmts);
  extractor.rest();
  const out = extractor.finish();
  return {
    file,
    language,
    isTest: isTestFile(file, language),
    shape: lowered.members.length > 0 && lowered.stmts.length === 0 ? "compilationUnit" : "script",
    ...out,
    parseProblems: lowered.problems,
  };
}

function label(language: TreeSitterLanguage): string {
  return language === "python" ? "Python" : language === "scala" ? "Scala" : "Kotlin";
}
