/**
 * One indicator of a response, rendered per kind (option checkboxes, a radio group, a text field),
 * with its sync state: modified (with a revert), refused by the service, or in conflict.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import {
  sameIndicatorValue,
  type EvidenceItemView,
  type IndicatorDefinition,
  type IndicatorValue,
  type ResponseValueView,
} from '../../../shared/responses/types';
import { ConflictPanel } from './ConflictPanel';
import { EvidenceForm, EvidenceList } from './EvidencePanel';
import { fieldId } from './format';
import { OptionsAnswer, TextAnswer } from './IndicatorAnswer';
import { registerDraft, revertValue, setValue, useResponses } from './responses-store';
import { AnswerHistoryButton } from '../history/AnswerHistoryButton';

/** Long enough to keep a bridge call per keystroke away, short enough to feel saved at once. */
const textCommitDelay = 400;

interface Props {
  responseId: number;
  def: IndicatorDefinition;
  view: ResponseValueView | undefined;
  evidence: EvidenceItemView[];
  readOnly: boolean;
}

export function IndicatorField({ responseId, def, view, evidence, readOnly: responseReadOnly }: Props) {
  // The service said this response has no such variable: shown, never edited.
  const unavailable = view !== undefined && !view.available;
  const readOnly = responseReadOnly || unavailable;
  const editError = useResponses((s) => s.editErrors[def.variable]);
  const stored: IndicatorValue = view?.value ?? null;
  // What the analyst just chose, shown until main's answer catches up (or refuses it).
  const [draft, setDraft] = useState<{ value: IndicatorValue } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pendingText = useRef<IndicatorValue | undefined>(undefined);
  const shown = draft ? draft.value : stored;
  const id = fieldId(responseId, def.variable);

  useEffect(() => {
    // Keyed on the view object: main answers every call with a fresh one, even for the same value.
    if (draft && pendingText.current === undefined && sameIndicatorValue(draft.value, view?.value ?? null))
      setDraft(null);
  }, [draft, view]);
  useEffect(() => {
    // A refused choice of an option shows the stored answer again; typed text stays for fixing.
    if (editError && def.kind !== 'text') setDraft(null);
  }, [editError, def.kind]);

  const commitText = useCallback(() => {
    clearTimeout(timer.current);
    const value = pendingText.current;
    if (value === undefined) return;
    pendingText.current = undefined;
    void setValue(responseId, def.variable, value);
  }, [responseId, def.variable]);

  useEffect(() => {
    const unregister = registerDraft(commitText);
    return () => {
      unregister();
      commitText();
    };
  }, [commitText]);

  const choose = (value: IndicatorValue) => {
    setDraft({ value });
    void setValue(responseId, def.variable, value);
  };
  const typeText = (text: string) => {
    const value = text === '' && (view?.base ?? null) === null ? null : text;
    setDraft({ value });
    pendingText.current = value;
    clearTimeout(timer.current);
    timer.current = setTimeout(commitText, textCommitDelay);
  };
  const revert = () => {
    clearTimeout(timer.current);
    pendingText.current = undefined;
    setDraft(null);
    void revertValue(responseId, def.variable);
  };

  const status = view?.status ?? 'clean';
  const describedBy = [
    `${id}-variable`,
    editError ? `${id}-error` : '',
    view?.serverErrors?.length ? `${id}-server` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div
      className={`indicator indicator-${status}`}
      data-testid="indicator"
      data-variable={def.variable}
      data-status={status}
      data-available={!unavailable}
    >
      {def.kind === 'text' ? (
        <TextAnswer
          id={id}
          def={def}
          shown={shown}
          readOnly={readOnly}
          describedBy={describedBy}
          invalid={editError !== undefined || (view?.serverErrors?.length ?? 0) > 0}
          onType={typeText}
          onCommit={commitText}
        />
      ) : (
        <OptionsAnswer
          id={id}
          def={def}
          shown={shown}
          readOnly={readOnly}
          describedBy={describedBy}
          answeredBefore={(view?.base ?? null) !== null}
          onChoose={choose}
        />
      )}
      <IndicatorMeta id={id} def={def} status={status} canRevert={!readOnly} onRevert={revert}>
        <AnswerHistoryButton responseId={responseId} variable={def.variable} label={def.label} />
      </IndicatorMeta>
      {unavailable && (
        <p className="banner-warning" data-testid="not-available">
          Not available in this response on the service: {view?.unavailableReason}
        </p>
      )}
      {editError && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="edit-error">
          {editError}
        </p>
      )}
      {view?.serverErrors && view.serverErrors.length > 0 && (
        <ul id={`${id}-server`} className="field-error server-errors" data-testid="server-errors">
          {view.serverErrors.map((m) => (
            <li key={m}>Refused by the service: {m}</li>
          ))}
        </ul>
      )}
      {status === 'conflict' && view?.theirs && (
        <ConflictPanel responseId={responseId} def={def} mine={view.value} theirs={view.theirs.value} />
      )}
      {def.evidence !== undefined && (
        <div className="indicator-evidence" data-testid="indicator-evidence">
          <EvidenceList items={evidence} label={`Evidence for ${def.label}`} />
          <EvidenceForm responseId={responseId} def={def} readOnly={readOnly} />
        </div>
      )}
    </div>
  );
}

/** The indicator's variable, and whether its answer is modified here (with a revert) or in conflict. */
function IndicatorMeta(props: {
  id: string;
  def: IndicatorDefinition;
  status: ResponseValueView['status'];
  canRevert: boolean;
  onRevert(): void;
  /** What else the line offers (the answer's history). */
  children?: ReactNode;
}) {
  const { id, def, status, canRevert, onRevert, children } = props;
  return (
    <div className="indicator-meta">
      <code id={`${id}-variable`} className="variable">
        {def.variable}
      </code>
      {status === 'modified' && (
        <>
          <span className="tag tag-modified" data-testid="modified-mark">
            Modified · not synced
          </span>
          {canRevert && (
            <button
              type="button"
              className="link-button"
              data-testid="revert-value"
              aria-label={`Revert ${def.label} to the service's answer`}
              onClick={onRevert}
            >
              Revert
            </button>
          )}
        </>
      )}
      {status === 'conflict' && (
        <span className="tag tag-conflict" data-testid="conflict-mark">
          Conflict
        </span>
      )}
      {children}
    </div>
  );
}
