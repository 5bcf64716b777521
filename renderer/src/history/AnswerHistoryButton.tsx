/** A portfolio answer's history (issue 31), in the same panel as a grid cell's. */
import { openCellHistory } from './cell-history-ui';

export function AnswerHistoryButton(props: { responseId: number; variable: string; label: string }) {
  return (
    <button
      type="button"
      className="link-button"
      data-testid="answer-history"
      aria-label={`History of the answer to: ${props.label}`}
      onClick={() =>
        openCellHistory({ responseId: props.responseId, variable: props.variable, title: props.label })
      }
    >
      History
    </button>
  );
}
