/** Mine and the service's answer side by side; nothing is overwritten until the analyst chooses. */
import type { IndicatorDefinition, IndicatorValue } from '../../../shared/responses/types';
import { describeValue } from './format';
import { resolveConflict } from './responses-store';

interface Props {
  responseId: number;
  def: IndicatorDefinition;
  mine: IndicatorValue;
  theirs: IndicatorValue;
}

export function ConflictPanel({ responseId, def, mine, theirs }: Props) {
  const headingId = `conflict-${responseId}-${def.variable}`;
  return (
    <div
      className="conflict-panel"
      role="group"
      aria-labelledby={headingId}
      data-testid="response-conflict"
      data-variable={def.variable}
    >
      <p id={headingId} className="conflict-title">
        Someone changed this answer on the service since your last sync. Which one should stay?
      </p>
      <div className="conflict-sides">
        <div className="conflict-side" data-testid="conflict-mine">
          <h4>Mine (this app)</h4>
          <p className="conflict-value">{describeValue(def, mine)}</p>
          <button
            type="button"
            className="primary"
            data-testid="keep-mine"
            aria-label={`Keep my answer to: ${def.label}`}
            onClick={() => void resolveConflict(responseId, def.variable, 'mine')}
          >
            Keep mine
          </button>
        </div>
        <div className="conflict-side" data-testid="conflict-theirs">
          <h4>Theirs (on the service)</h4>
          <p className="conflict-value">{describeValue(def, theirs)}</p>
          <button
            type="button"
            data-testid="take-theirs"
            aria-label={`Take the service's answer to: ${def.label}`}
            onClick={() => void resolveConflict(responseId, def.variable, 'theirs')}
          >
            Take theirs
          </button>
        </div>
      </div>
    </div>
  );
}
