/** An indicator's answer as the analyst gives it: a text field, or its options (checkboxes or a radio group). */
import type { IndicatorDefinition, IndicatorValue } from '../../../shared/responses/types';

interface AnswerProps {
  /** The field's id prefix (format.ts `fieldId`). */
  id: string;
  def: IndicatorDefinition;
  /** The value shown: the analyst's draft, else the stored answer. */
  shown: IndicatorValue;
  readOnly: boolean;
  describedBy: string;
}

export function TextAnswer(
  props: AnswerProps & { invalid: boolean; onType(text: string): void; onCommit(): void },
) {
  const { id, def, shown, readOnly, describedBy } = props;
  return (
    <div className="indicator-body">
      <label htmlFor={`${id}-text`} className="indicator-label">
        {def.label}
      </label>
      <textarea
        id={`${id}-text`}
        data-testid="indicator-text"
        value={shown === null || Array.isArray(shown) ? '' : String(shown)}
        maxLength={def.max_length}
        rows={3}
        disabled={readOnly}
        aria-describedby={describedBy}
        aria-invalid={props.invalid}
        onChange={(e) => props.onType(e.target.value)}
        onBlur={props.onCommit}
      />
      {def.max_length !== undefined && (
        <span className="hint char-count" aria-hidden="true">
          {typeof shown === 'string' ? shown.length : 0} / {def.max_length}
        </span>
      )}
    </div>
  );
}

export function OptionsAnswer(
  props: AnswerProps & {
    /** The service has an answer: unticking every option leaves an empty answer, not none. */
    answeredBefore: boolean;
    onChoose(value: IndicatorValue): void;
  },
) {
  const { id, def, shown, readOnly, describedBy } = props;
  const choose = props.onChoose;
  return (
    <fieldset className="indicator-body" disabled={readOnly} aria-describedby={describedBy}>
      <legend id={`${id}-legend`} className="indicator-label">
        {def.label}
      </legend>
      <div
        className={`options options-${def.kind}`}
        role={def.kind === 'radio' ? 'radiogroup' : 'group'}
        aria-labelledby={`${id}-legend`}
      >
        {(def.options ?? []).map((option) => {
          const checked =
            def.kind === 'checkbox'
              ? Array.isArray(shown) && shown.includes(option.code)
              : shown !== null && String(shown) === option.code;
          return (
            <label key={option.code} className="option" htmlFor={`${id}-${option.code}`}>
              <input
                id={`${id}-${option.code}`}
                type={def.kind}
                name={id}
                value={option.code}
                checked={checked}
                data-testid="indicator-option"
                data-code={option.code}
                onChange={(e) => {
                  if (def.kind === 'radio') return choose(option.code);
                  const set = Array.isArray(shown) ? shown : [];
                  const next = e.target.checked
                    ? [...set.filter((c) => c !== option.code), option.code]
                    : set.filter((c) => c !== option.code);
                  // Unticking everything of a never-answered question leaves it unanswered.
                  choose(next.length === 0 && !props.answeredBefore ? null : next);
                }}
              />
              {option.label}
            </label>
          );
        })}
        {def.kind === 'radio' && shown !== null && !readOnly && (
          <button
            type="button"
            className="link-button clear-answer"
            aria-label={`Clear the answer to: ${def.label}`}
            onClick={() => choose(null)}
          >
            Clear
          </button>
        )}
      </div>
    </fieldset>
  );
}
