import type Database from 'better-sqlite3';
import {
  sameIndicatorValue,
  type IndicatorValue,
  type ResponseValueView,
} from '../../shared/responses/types';
import { answerId, type AnswerValues } from '../workspace/answer-document';
import type { WritePath } from '../workspace/write-path';
import type { ServiceValue } from './responses-client';

/** A row of `response_values`: the service's copy (base) and the analyst's (current) of one answer. */
export interface ValueRow {
  response_id: number;
  variable: string;
  base_value: string;
  base_lock_version: string;
  current_value: string;
  conflict_value: string | null;
  conflict_lock_version: string | null;
  server_errors: string | null;
  /** The service's word that this response has no such variable (its 404); null when it has. */
  unavailable: string | null;
  remote_updated_at: string | null;
  updated_at: number;
}

export const parseValue = (text: string): IndicatorValue => JSON.parse(text) as IndicatorValue;
export const valueText = (value: IndicatorValue): string => JSON.stringify(value);

export function valueView(row: ValueRow): ResponseValueView {
  const base = parseValue(row.base_value);
  const value = parseValue(row.current_value);
  const inConflict = row.conflict_lock_version !== null && row.conflict_value !== null;
  return {
    variable: row.variable,
    value,
    base,
    // SQLite hands back what was stored; String() also reads a version an older file kept as a number.
    lockVersion: String(row.base_lock_version),
    status: inConflict ? 'conflict' : sameIndicatorValue(base, value) ? 'clean' : 'modified',
    theirs: inConflict
      ? {
          value: parseValue(row.conflict_value ?? 'null'),
          lockVersion: String(row.conflict_lock_version ?? '0'),
        }
      : undefined,
    serverErrors: row.server_errors ? (JSON.parse(row.server_errors) as string[]) : undefined,
    available: row.unavailable === null,
    unavailableReason: row.unavailable ?? undefined,
    updatedAt: row.remote_updated_at,
  };
}

/** What the service said of an answer, as a change's source. */
const told = (updatedAt: string | null = null) => ({ kind: 'service', updatedAt }) as const;

/**
 * The answers of the workspace's responses and what the service tells about them: a pulled value
 * merged per answer, a write acknowledged or refused, a variable the service does not have. Each is
 * written through the write path (as the service's copy changing), which owns the table's statements.
 */
export class ValueTable {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
    private readonly path: WritePath,
  ) {}

  rows(responseId: number): ValueRow[] {
    return this.db
      .prepare('SELECT * FROM response_values WHERE response_id = ? ORDER BY variable')
      .all(responseId) as ValueRow[];
  }

  row(responseId: number, variable: string): ValueRow | undefined {
    return this.db
      .prepare('SELECT * FROM response_values WHERE response_id = ? AND variable = ?')
      .get(responseId, variable) as ValueRow | undefined;
  }

  /**
   * The service's value, merged: an answer unchanged here takes the service's; an answer edited here
   * stays pending if the service's lock_version has not moved (or moved without changing the value);
   * otherwise both changed and it becomes a conflict.
   */
  merge(responseId: number, remote: ServiceValue): void {
    const row = this.row(responseId, remote.variable);
    const remoteText = valueText(remote.value);
    const change = { source: told(remote.updated_at) };
    const id = answerId(responseId, remote.variable);
    if (!row) {
      this.path.service('answer', id, { ...change, before: null }, (w) => {
        w.insert(responseId, remote.variable, {
          base_value: remoteText,
          base_lock_version: remote.lock_version,
          current_value: remoteText,
          remote_updated_at: remote.updated_at,
          updated_at: this.now(),
        });
        return undefined;
      });
      return;
    }
    const base = parseValue(row.base_value);
    const current = parseValue(row.current_value);
    const set = (values: AnswerValues): void => {
      this.path.service('answer', id, change, (w) => {
        w.update(responseId, remote.variable, {
          ...values,
          unavailable: null,
          remote_updated_at: remote.updated_at,
          updated_at: this.now(),
        });
        return undefined;
      });
    };
    if (remote.lock_version === String(row.base_lock_version)) {
      if (row.unavailable !== null) set({});
      return;
    }
    const noConflict = { conflict_value: null, conflict_lock_version: null };
    if (sameIndicatorValue(base, current) || sameIndicatorValue(remote.value, current)) {
      // Nothing pending here, or both sides wrote the same answer.
      set({
        base_value: remoteText,
        base_lock_version: remote.lock_version,
        current_value: remoteText,
        ...noConflict,
        server_errors: null,
      });
    } else if (sameIndicatorValue(remote.value, base)) {
      // Rewritten with the same value: nothing to merge, the pending edit goes over the new version.
      set({ base_lock_version: remote.lock_version, ...noConflict });
    } else {
      set({ conflict_value: remoteText, conflict_lock_version: remote.lock_version });
    }
  }

  /** The service took `sent`: its answer row is the new base; an edit made meanwhile stays pending. */
  acknowledge(responseId: number, variable: string, sent: IndicatorValue, remote: ServiceValue): void {
    const row = this.row(responseId, variable);
    if (!row) return;
    const unchangedSince = sameIndicatorValue(parseValue(row.current_value), sent);
    const source = told(remote.updated_at);
    this.path.service('answer', answerId(responseId, variable), { source }, (w) => {
      w.update(responseId, variable, {
        base_value: valueText(remote.value),
        base_lock_version: remote.lock_version,
        current_value: unchangedSince ? valueText(remote.value) : row.current_value,
        server_errors: null,
        conflict_value: null,
        conflict_lock_version: null,
        unavailable: null,
        remote_updated_at: remote.updated_at,
        updated_at: this.now(),
      });
      return undefined;
    });
  }

  reject(responseId: number, variable: string, errors: readonly string[]): void {
    this.path.service('answer', answerId(responseId, variable), { source: told() }, (w) => {
      w.update(responseId, variable, { server_errors: JSON.stringify(errors) });
      return undefined;
    });
  }

  /** The service has no such variable in this response: shown as not available, never sent. */
  markUnavailable(responseId: number, variable: string, message: string): void {
    const exists = this.row(responseId, variable) !== undefined;
    this.path.service('answer', answerId(responseId, variable), { source: told() }, (w) => {
      if (exists) w.update(responseId, variable, { unavailable: message });
      else
        w.insert(responseId, variable, {
          base_value: 'null',
          base_lock_version: '0',
          current_value: 'null',
          unavailable: message,
          updated_at: this.now(),
        });
      return undefined;
    });
  }

  /** A response the service no longer lists, with nothing unsent: its answers go with it. */
  removeAll(responseId: number): void {
    for (const row of this.rows(responseId)) {
      this.path.service('answer', answerId(responseId, row.variable), { source: told() }, (w) => {
        w.remove(responseId, row.variable);
        return null;
      });
    }
  }
}
