import type Database from 'better-sqlite3';
import {
  sameIndicatorValue,
  type IndicatorValue,
  type ResponseValueView,
} from '../../shared/responses/types';
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

/**
 * The answers of the workspace's responses and what the service tells about them: a pulled value
 * merged per answer, a write acknowledged or refused, a variable the service does not have.
 */
export class ValueTable {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
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
    if (!row) {
      this.db
        .prepare(
          `INSERT INTO response_values (response_id, variable, base_value, base_lock_version, current_value,
           remote_updated_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          responseId,
          remote.variable,
          remoteText,
          remote.lock_version,
          remoteText,
          remote.updated_at,
          this.now(),
        );
      return;
    }
    const base = parseValue(row.base_value);
    const current = parseValue(row.current_value);
    const set = (fields: string, ...params: unknown[]): void => {
      this.db
        .prepare(
          `UPDATE response_values SET ${fields}, unavailable = NULL, remote_updated_at = ?, updated_at = ?
           WHERE response_id = ? AND variable = ?`,
        )
        .run(...params, remote.updated_at, this.now(), responseId, remote.variable);
    };
    if (remote.lock_version === String(row.base_lock_version)) {
      if (row.unavailable !== null) set('base_lock_version = base_lock_version');
      return;
    }
    if (sameIndicatorValue(base, current) || sameIndicatorValue(remote.value, current)) {
      // Nothing pending here, or both sides wrote the same answer.
      set(
        'base_value = ?, base_lock_version = ?, current_value = ?, conflict_value = NULL, conflict_lock_version = NULL, server_errors = NULL',
        remoteText,
        remote.lock_version,
        remoteText,
      );
    } else if (sameIndicatorValue(remote.value, base)) {
      // Rewritten with the same value: nothing to merge, the pending edit goes over the new version.
      set('base_lock_version = ?, conflict_value = NULL, conflict_lock_version = NULL', remote.lock_version);
    } else {
      set('conflict_value = ?, conflict_lock_version = ?', remoteText, remote.lock_version);
    }
  }

  /** The service took `sent`: its answer row is the new base; an edit made meanwhile stays pending. */
  acknowledge(responseId: number, variable: string, sent: IndicatorValue, remote: ServiceValue): void {
    const row = this.row(responseId, variable);
    if (!row) return;
    const unchangedSince = sameIndicatorValue(parseValue(row.current_value), sent);
    this.db
      .prepare(
        `UPDATE response_values SET base_value = ?, base_lock_version = ?, current_value = ?, server_errors = NULL,
         conflict_value = NULL, conflict_lock_version = NULL, unavailable = NULL, remote_updated_at = ?, updated_at = ?
         WHERE response_id = ? AND variable = ?`,
      )
      .run(
        valueText(remote.value),
        remote.lock_version,
        unchangedSince ? valueText(remote.value) : row.current_value,
        remote.updated_at,
        this.now(),
        responseId,
        variable,
      );
  }

  reject(responseId: number, variable: string, errors: readonly string[]): void {
    this.db
      .prepare('UPDATE response_values SET server_errors = ? WHERE response_id = ? AND variable = ?')
      .run(JSON.stringify(errors), responseId, variable);
  }

  /** The service has no such variable in this response: shown as not available, never sent. */
  markUnavailable(responseId: number, variable: string, message: string): void {
    if (this.row(responseId, variable)) {
      this.db
        .prepare('UPDATE response_values SET unavailable = ? WHERE response_id = ? AND variable = ?')
        .run(message, responseId, variable);
      return;
    }
    this.db
      .prepare(
        `INSERT INTO response_values (response_id, variable, base_value, base_lock_version, current_value,
         unavailable, updated_at) VALUES (?, ?, 'null', '0', 'null', ?, ?)`,
      )
      .run(responseId, variable, message, this.now());
  }
}
