/**
 * Documents webhook (SendAdditionalRequiredDocumentsToMerchant): the semantic checks the JSON Schema
 * cannot make, and decoding. Each document needs a DocumentTypeCode, a DocumentExtension of PDF, ZPL
 * or EPL (any case, an optional leading dot), and its file as DocumentData (well-formed base64,
 * standard or URL-safe alphabet, line breaks allowed) or, without DocumentData, an http(s) URL.
 * The adapter receives each document with `Content`, the decoded bytes (a Buffer), when it had DocumentData.
 */
import { decodeBase64 } from '../../shared/base64.js';
import { PipelineFailure } from '../../shared/errors.js';
import { normalizeTypeCode } from '../../store/holds.js';
import type { OrderDocument } from '../../payloads.js';
import type { Validated } from './types.js';
import { describeIssues, type ValidationIssue } from '../../validation/issues.js';
import type { ReceivedDocument } from '../types.js';

export const DOCUMENT_EXTENSIONS = ['PDF', 'ZPL', 'EPL'] as const;

export { decodeBase64 } from '../../shared/base64.js';

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() === '') return false;
  try {
    const u = new URL(value.trim());
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Checks every document; returns the problems (JSON pointers, never values) and the decoded documents. */
export function checkDocuments(documents: unknown): { issues: ValidationIssue[]; decoded: ReceivedDocument[] } {
  const issues: ValidationIssue[] = [];
  const decoded: ReceivedDocument[] = [];
  if (!Array.isArray(documents) || documents.length === 0) {
    return { issues: [{ pointer: '/Documents', rule: 'must be a non-empty array of documents' }], decoded };
  }
  documents.forEach((doc, i) => {
    const at = `/Documents/${i}`;
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
      issues.push({ pointer: at, rule: 'must be an object' });
      return;
    }
    const d = doc as Record<string, unknown>;
    if (normalizeTypeCode(d.DocumentTypeCode) === undefined) issues.push({ pointer: `${at}/DocumentTypeCode`, rule: 'is required' });
    const ext = typeof d.DocumentExtension === 'string' ? d.DocumentExtension.trim().replace(/^\./, '').toUpperCase() : '';
    if (!(DOCUMENT_EXTENSIONS as readonly string[]).includes(ext)) {
      issues.push({ pointer: `${at}/DocumentExtension`, rule: 'must be PDF, ZPL or EPL' });
    }
    const out: ReceivedDocument = { ...(d as OrderDocument) };
    if (d.DocumentData !== undefined && d.DocumentData !== null && d.DocumentData !== '') {
      const bytes = typeof d.DocumentData === 'string' ? decodeBase64(d.DocumentData) : null;
      if (bytes === null || bytes.length === 0) issues.push({ pointer: `${at}/DocumentData`, rule: 'must be well-formed base64' });
      else out.Content = bytes;
    } else if (!isHttpUrl(d.URL)) {
      issues.push({
        pointer: d.URL === undefined || d.URL === null || d.URL === '' ? at : `${at}/URL`,
        rule: d.URL === undefined || d.URL === null || d.URL === '' ? 'needs DocumentData (base64) or a URL' : 'must be an http(s) URL',
      });
    }
    decoded.push(out);
  });
  return { issues, decoded };
}

/** The documents stage (an entry with `documents`: the documents webhook): each document checked and decoded, or the 400 refusal. */
export function documents<D extends Validated>(delivery: D): D {
  const input = delivery.input as Record<string, unknown>;
  const { issues, decoded } = checkDocuments(input.Documents);
  if (issues.length > 0) {
    const description = describeIssues(issues);
    throw new PipelineFailure('INVALID_REQUEST', `documents rejected: ${description}`, description);
  }
  return { ...delivery, input: { ...input, Documents: decoded } as D['input'] };
}
