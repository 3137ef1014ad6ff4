// `npm run audit:electron` (scripts/audit-electron.mjs): electronegativity over electron/ finds
// nothing above low that docs/app.md does not list as a reviewed exception. Where the tool is not
// installed (CI installs it: `npm run audit:electron -- --install`), that part is skipped, saying
// so; reading the tool's findings and the docs' exceptions is tested always.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  parseFindings,
  reviewedExceptions,
  toolEntry,
  unreviewed,
  wellFormed,
} from '../scripts/audit-electron.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../scripts/audit-electron.mjs', import.meta.url));
const installed = toolEntry() !== null && existsSync(toolEntry()!);
if (!installed)
  console.warn(
    'electron-audit: @doyensec/electronegativity is not installed (npm run audit:electron -- --install): its run is skipped.',
  );

const CSV = `issue, severity, confidence, filename, location, sample, description, url
CSP_GLOBAL_CHECK,"MEDIUM","CERTAIN","N/A","0:0",N/A,"No CSP has been detected
in the target application",https://x
PRELOAD_JS_CHECK,"MEDIUM","FIRM","main.ts","358:6","preload: join(HERE, 'preload.cjs'),","Review",https://x
PRELOAD_JS_CHECK,"MEDIUM","FIRM","other.ts","1:1","preload: ""x""","Review",https://x
AUXCLICK_JS_CHECK,"LOW","FIRM","main.ts","348:17","new BrowserWindow({","Middle-click",https://x
`;

describe('the Electron audit', () => {
  it('tells a file of well-formed findings from one cut short or run together', () => {
    expect(parseFindings(CSV).every(wellFormed)).toBe(true);
    // Cut inside a quoted field, or after a whole line but before the file's end.
    expect(() => parseFindings(CSV.slice(0, CSV.indexOf('in the target application')))).toThrow(
      /ends before its last line/,
    );
    expect(() => parseFindings(CSV.slice(0, CSV.indexOf('PRELOAD_JS_CHECK') - 1))).toThrow();
    // Records run together: no severity where one belongs.
    const garbled = CSV.replace('AUXCLICK_JS_CHECK,"LOW"', 'AUXCLICK_JS_CHECK "LOW"');
    expect(parseFindings(garbled).every(wellFormed)).toBe(false);
  });

  it('reads the tool’s findings and the docs’ reviewed exceptions', () => {
    const findings = parseFindings(CSV);
    expect(findings.map((finding) => [finding.check, finding.file, finding.sample])).toEqual([
      ['CSP_GLOBAL_CHECK', 'N/A', 'N/A'],
      ['PRELOAD_JS_CHECK', 'main.ts', "preload: join(HERE, 'preload.cjs'),"],
      ['PRELOAD_JS_CHECK', 'other.ts', 'preload: "x"'],
      ['AUXCLICK_JS_CHECK', 'main.ts', 'new BrowserWindow({'],
    ]);
    const exceptions = reviewedExceptions(readFileSync(`${ROOT}docs/app.md`, 'utf8'));
    expect(exceptions).toContainEqual({ check: 'CSP_GLOBAL_CHECK', file: 'N/A' });
    // A reviewed check in another file, and anything not reviewed, is a finding; low ones are not.
    expect(unreviewed(findings, exceptions).map((finding) => finding.file)).toEqual(['other.ts']);
  });

  it.skipIf(!installed)(
    'finds nothing above low in electron/ that is not a reviewed exception',
    () => {
      const run = spawnSync(process.execPath, [SCRIPT], { cwd: ROOT, encoding: 'utf8' });
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    },
    120_000,
  );
});
