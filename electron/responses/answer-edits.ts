import type Database from 'better-sqlite3';
import type { ChangeSource } from '../../shared/history/change-source';
import { catalogIndicator } from '../../shared/responses/catalog';
import {
  checkIndicatorValue,
  isReadOnlyResponse,
  type IndicatorValue,
  type ResponseSummary,
  type ResponseValueView,
} from '../../shared/responses/types';
import { answerColumns, answerId, type AnswerColumn, type AnswerWriter } from '../workspace/answer-document';
import type { WritePath } from '../workspace/write-path';
import { valueText, valueView, type ValueTable } from './value-table';

/** Refused edits: the message is for the analyst. */
export class ResponseEditError extends Error {
  constructor(
    readonly code: 'not_found' | 'read_only' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'ResponseEditError';
  }
}

/**
 * The analyst's changes of portfolio answers: each checked, then written through the workspace's
 * write path as one labelled step of the workspace's history, in one transaction.
 */
export class AnswerEdits {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
    private readonly path: WritePath,
    private readonly values: ValueTable,
    private readonly summaryOf: (responseId: number) => ResponseSummary | undefined,
  ) {}

  setValue(responseId: number, variable: string, value: IndicatorValue): ResponseValueView {
    return this.db.transaction((): ResponseValueView => {
      const summary = this.summaryOf(responseId);
      if (!summary) throw new ResponseEditError('not_found', `No response ${responseId} in the workspace`);
      const title = `The ${summary.survey_year} response`;
      if (isReadOnlyResponse(summary)) {
        throw new ResponseEditError(
          'read_only',
          `${title} is ${summary.status}${summary.survey_open ? '' : ' (survey closed)'}: a historical response is read-only`,
        );
      }
      const def = catalogIndicator(variable);
      if (!def) throw new ResponseEditError('not_found', `No indicator ${variable} in the catalog`);
      const existing = this.values.row(responseId, variable);
      if (existing?.unavailable)
        throw new ResponseEditError(
          'not_found',
          `${def.label} is not available in ${title}: ${existing.unavailable}`,
        );
      const problems = checkIndicatorValue(def, value);
      if (problems.length > 0) throw new ResponseEditError('invalid', `${def.label} ${problems.join('; ')}`);
      const change = { variable, value, columns: ['current_value', 'server_errors'] as const };
      this.change(
        `answer to ${def.label}`,
        responseId,
        variable,
        'response-set',
        change,
        { kind: 'typed' },
        (w) => {
          const current = { current_value: valueText(value), server_errors: null, updated_at: this.now() };
          if (existing) w.update(responseId, variable, current);
          // Never read from the service: "0" is the version a first write sends.
          else w.insert(responseId, variable, { base_value: 'null', base_lock_version: '0', ...current });
        },
      );
      return this.mustValue(responseId, variable);
    })();
  }

  /**
   * mine: the service's newer value becomes the base, so the analyst's answer is sent over it;
   * theirs: the service's value replaces the analyst's.
   */
  resolveConflict(responseId: number, variable: string, choice: 'mine' | 'theirs'): ResponseValueView {
    return this.db.transaction((): ResponseValueView => {
      const row = this.values.row(responseId, variable);
      if (!row) throw new ResponseEditError('not_found', `No answer ${variable} in response ${responseId}`);
      if (row.conflict_lock_version !== null && row.conflict_value !== null) {
        const current = choice === 'theirs' ? row.conflict_value : row.current_value;
        this.change(
          `conflict on ${labelOf(variable)}: ${choice === 'mine' ? 'mine kept' : 'theirs taken'}`,
          responseId,
          variable,
          'response-resolve',
          { variable, choice, columns: answerColumns },
          { kind: 'conflict', choice },
          (w) =>
            w.update(responseId, variable, {
              base_value: row.conflict_value,
              base_lock_version: row.conflict_lock_version,
              current_value: current,
              conflict_value: null,
              conflict_lock_version: null,
              updated_at: this.now(),
            }),
        );
      }
      return this.mustValue(responseId, variable);
    })();
  }

  /** Back to the service's answer (for a conflict: theirs). */
  revertValue(responseId: number, variable: string): ResponseValueView {
    return this.db.transaction((): ResponseValueView => {
      const row = this.values.row(responseId, variable);
      if (!row) throw new ResponseEditError('not_found', `No answer ${variable} in response ${responseId}`);
      const inConflict = row.conflict_lock_version !== null && row.conflict_value !== null;
      const base = inConflict ? (row.conflict_value ?? row.base_value) : row.base_value;
      const lock = inConflict ? (row.conflict_lock_version ?? row.base_lock_version) : row.base_lock_version;
      this.change(
        `revert of the answer to ${labelOf(variable)}`,
        responseId,
        variable,
        'response-revert',
        { variable, columns: answerColumns },
        { kind: 'typed' },
        (w) =>
          w.update(responseId, variable, {
            base_value: base,
            base_lock_version: lock,
            current_value: base,
            conflict_value: null,
            conflict_lock_version: null,
            server_errors: null,
            updated_at: this.now(),
          }),
      );
      return this.mustValue(responseId, variable);
    })();
  }

  private mustValue(responseId: number, variable: string): ResponseValueView {
    const row = this.values.row(responseId, variable);
    if (!row) throw new ResponseEditError('not_found', `No answer ${variable} in response ${responseId}`);
    return valueView(row);
  }

  /**
   * One change of an answer by the analyst, as a labelled step of the workspace's history ("answer
   * to <indicator>"), so Undo, on any tab, undoes what its label says. `payload.columns`: what the
   * change touches, so undo leaves the rest (a base a sync moved since) alone.
   */
  private change(
    label: string,
    responseId: number,
    variable: string,
    kind: string,
    payload: { columns: readonly AnswerColumn[] } & Record<string, unknown>,
    source: ChangeSource,
    write: (writer: AnswerWriter) => void,
  ): void {
    this.path.step(label, () =>
      this.path.analyst('answer', answerId(responseId, variable), { kind, payload, source }, (w) => {
        write(w);
        return undefined;
      }),
    );
  }
}

/** An indicator's words for a step's label (its variable when the catalog does not know it). */
function labelOf(variable: string): string {
  return catalogIndicator(variable)?.label ?? variable;
}
