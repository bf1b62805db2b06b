/**
 * The checker's outputs: a plain-text table, the --json document and a JUnit XML report for CI.
 */
import type { ConformanceReport } from './runner.js';

const MARK = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

function clip(text: string, width: number): string {
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, width - 1)}…`;
}

/** The pass/fail table: id, what was checked, result, detail; then the totals. */
export function formatTable(report: ConformanceReport): string {
  const idWidth = Math.max(2, ...report.checks.map((c) => c.id.length));
  const titleWidth = Math.min(60, Math.max(5, ...report.checks.map((c) => c.title.length)));
  const lines = [
    `Conformance of ${report.merchantUrl}`,
    '',
    ...(report.preflight ? [`PREFLIGHT FAILED: ${report.preflight}`, ''] : []),
    `${'ID'.padEnd(idWidth)}  ${'CHECK'.padEnd(titleWidth)}  RESULT  DETAIL`,
    ...report.checks.map((c) => `${c.id.padEnd(idWidth)}  ${clip(c.title, titleWidth)}  ${MARK[c.status].padEnd(6)}  ${c.detail}`),
    '',
    `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped (${report.durationMs} ms)`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The --json document: { checks: [{ id, title, status, detail }], passed, failed, skipped, preflight? }. */
export function toJson(report: ConformanceReport): { checks: Array<{ id: string; title: string; status: string; detail: string; durationMs: number }>; passed: number; failed: number; skipped: number; durationMs: number; preflight?: string } {
  return {
    checks: report.checks.map(({ id, title, status, detail, durationMs }) => ({ id, title, status, detail, durationMs })),
    passed: report.passed, failed: report.failed, skipped: report.skipped, durationMs: report.durationMs,
    ...(report.preflight ? { preflight: report.preflight } : {}),
  };
}

function xml(text: string): string {
  return text
    // characters XML 1.0 cannot carry at all
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A JUnit XML report: one testsuite, one testcase per check (failure / skipped elements). */
export function formatJunit(report: ConformanceReport): string {
  const cases = report.checks.map((c) => {
    const open = `    <testcase classname="conformance" name="${xml(c.id)}" time="${(c.durationMs / 1000).toFixed(3)}">`;
    const body = c.status === 'fail'
      ? `\n      <failure message="${xml(c.detail)}" type="${xml(c.id)}">${xml(`${c.title}\n${c.detail}`)}</failure>\n    `
      : c.status === 'skip' ? `\n      <skipped message="${xml(c.detail)}"/>\n    ` : '';
    return `${open}${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="crossborder-merchant-kit conformance" tests="${report.checks.length}" failures="${report.failed}" skipped="${report.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(report.merchantUrl)}" tests="${report.checks.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}" timestamp="${report.startedAt}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
