#!/usr/bin/env node
// `npm run audit:electron`: @doyensec/electronegativity over electron/ with the installed
// Electron's version. Every finding above low must be a reviewed exception, listed in
// docs/app.md under "Reviewed findings of electronegativity" as "- `CHECK` (`file`): why";
// anything else is printed and the exit code is 1. The tool lives in a folder of its own
// (node_modules/.cache/electronegativity, made by `--install`), not among the project's
// dependencies: it uses a commander it does not declare, and the project's newer one breaks it.
// VORORT_ELECTRONEGATIVITY names the tool's entry where it is installed elsewhere. The tool asks
// the network for Electron's releases and its translations and goes on without them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The tool's own folder, and the version installed there. */
export const TOOL_DIR = join(ROOT, 'node_modules', '.cache', 'electronegativity');
const TOOL_VERSION = '1.10.3';

/**
 * The CSV the tool writes: one object per finding. Fields are quoted where they hold commas,
 * quotes or line breaks (a description may span lines), so the text is read as a whole.
 */
export function parseFindings(csv) {
  const records = [];
  let fields = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < csv.length; index += 1) {
    const char = csv[index];
    if (quoted) {
      if (char === '"' && csv[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && csv[index + 1] === '\n') index += 1;
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
    } else field += char;
  }
  // The tool ends its file with a line break: a file that ends elsewhere (inside a quoted field
  // too) was cut short, and what it does not hold may be a finding.
  if (quoted || !/\n$/.test(csv)) throw new Error('the findings file ends before its last line');
  if (field !== '' || fields.length > 0) records.push([...fields, field]);
  return records
    .slice(1)
    .filter((record) => record.some((value) => value.trim() !== ''))
    .map(([check = '', severity = '', confidence = '', file = '', location = '', sample = '']) => ({
      check: check.trim(),
      severity: severity.trim(),
      confidence: confidence.trim(),
      file: file.trim(),
      location: location.trim(),
      sample,
    }));
}

/** A finding as the tool writes one: a check's name, a known severity, a place. */
export function wellFormed(finding) {
  return (
    /^[A-Z0-9_]+$/.test(finding.check) &&
    ['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH'].includes(finding.severity.toUpperCase()) &&
    finding.location !== ''
  );
}

/** The reviewed exceptions: "- `CHECK` (`file`)" lines of the docs' section. */
export function reviewedExceptions(markdown) {
  const start = markdown.indexOf('Reviewed findings of electronegativity');
  if (start === -1) return [];
  const section = markdown.slice(start).split(/\n#{1,4} /)[0];
  return [...section.matchAll(/^- `([A-Z_]+)` \(`([^`]+)`\)/gm)].map(([, check, file]) => ({
    check,
    file,
  }));
}

/** Findings above low that no exception covers. */
export function unreviewed(findings, exceptions) {
  return findings.filter(
    (finding) =>
      finding.severity.toUpperCase() !== 'LOW' &&
      finding.severity.toUpperCase() !== 'INFORMATIONAL' &&
      !exceptions.some(
        (exception) => exception.check === finding.check && exception.file === finding.file,
      ),
  );
}

/** The tool's entry: VORORT_ELECTRONEGATIVITY, else its own folder's install; null when neither. */
export function toolEntry() {
  if (process.env.VORORT_ELECTRONEGATIVITY) return process.env.VORORT_ELECTRONEGATIVITY;
  const require = createRequire(join(TOOL_DIR, 'package.json'));
  try {
    const manifest = require.resolve('@doyensec/electronegativity/package.json');
    return join(
      dirname(manifest),
      JSON.parse(readFileSync(manifest, 'utf8')).bin.electronegativity,
    );
  } catch {
    return null;
  }
}

/** Installs the tool in its own folder (its install scripts not run: it needs none). */
function install() {
  mkdirSync(TOOL_DIR, { recursive: true });
  writeFileSync(join(TOOL_DIR, 'package.json'), '{ "private": true }\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-save',
      `@doyensec/electronegativity@${TOOL_VERSION}`,
    ],
    { cwd: TOOL_DIR, encoding: 'utf8', stdio: 'inherit', shell: process.platform === 'win32' },
  );
  if (run.status !== 0) {
    process.stderr.write('audit:electron: installing @doyensec/electronegativity failed.\n');
    process.exit(2);
  }
}

async function main() {
  if (process.argv.includes('--install') && !toolEntry()) install();
  const entry = toolEntry();
  if (!entry) {
    process.stderr.write(
      'audit:electron: @doyensec/electronegativity is not installed: npm run audit:electron -- --install\n',
    );
    process.exit(2);
  }
  const require = createRequire(join(ROOT, 'package.json'));
  const electron = JSON.parse(
    readFileSync(require.resolve('electron/package.json'), 'utf8'),
  ).version;
  const out = mkdtempSync(join(tmpdir(), 'vorort-audit-'));
  try {
    const csv = join(out, 'findings.csv');
    // Once, in the whole suite on a loaded machine, the file read as one garbled finding (the
    // tool's records run together, no severity): a file cut short or garbled comes again from a
    // new run, at most three runs, and then is refused in words rather than judged.
    let findings = null;
    for (let attempt = 1; ; attempt += 1) {
      rmSync(csv, { force: true });
      const run = spawnSync(
        process.execPath,
        [entry, '-i', join(ROOT, 'electron'), '-e', electron, '-r', '-v', 'false', '-o', csv],
        { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
      );
      let text;
      try {
        text = readFileSync(csv, 'utf8');
      } catch {
        process.stderr.write(
          `audit:electron: the tool wrote no findings:\n${run.stdout}${run.stderr}\n`,
        );
        process.exit(2);
      }
      try {
        findings = parseFindings(text);
      } catch {
        findings = null;
      }
      if (findings?.every(wellFormed)) break;
      if (attempt === 3) {
        process.stderr.write(`audit:electron: the tool's findings cannot be read:\n${text}\n`);
        process.exit(2);
      }
    }
    const exceptions = reviewedExceptions(readFileSync(join(ROOT, 'docs', 'app.md'), 'utf8'));
    const left = unreviewed(findings, exceptions);
    process.stdout.write(
      `audit:electron: Electron ${electron}, ${findings.length} findings, ${findings.length - left.length} of them low or reviewed (docs/app.md).\n`,
    );
    for (const finding of left)
      process.stdout.write(
        `  ${finding.severity} ${finding.check} ${finding.file}:${finding.location} ${finding.sample}\n`,
      );
    process.exit(left.length === 0 ? 0 : 1);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
