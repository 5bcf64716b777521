/**
 * The editor of a list-bound cell (country, property type, codes, levels): type-ahead by code or by
 * label ("NL", "neth", "Netherlands (NL)"), arrows and Enter or Tab to pick, and a value outside the
 * list refused in the editor with the reason, the cell keeping what it had. AG Grid Community's
 * select editor neither takes typing nor shows labels; its rich select is Enterprise.
 */
import type { ICellEditorComp, ICellEditorParams } from 'ag-grid-community';
import type { GridRow } from '../grid-model/rows';

export interface ListEditorParams {
  values: readonly unknown[];
  /** The value as the list shows it ("Netherlands (NL)"). */
  format: (value: unknown) => string;
  /**
   * Typed text as a value, for words that are not in the list's own text (a yes/no cell takes
   * "yes", "no", "1", "0" as Excel does); a result outside the list is ignored.
   */
  parse?: (text: string) => unknown;
}

const maxShown = 50;

export class ListCellEditor implements ICellEditorComp<GridRow> {
  private root!: HTMLDivElement;
  private input!: HTMLInputElement;
  private list!: HTMLUListElement;
  private reason!: HTMLDivElement;
  private items: { value: unknown; text: string }[] = [];
  private matches: { value: unknown; text: string }[] = [];
  private active = 0;
  private original: unknown;
  private chosen: { value: unknown } | undefined;
  private parse: ((text: string) => unknown) | undefined;

  init(params: ICellEditorParams<GridRow> & ListEditorParams): void {
    this.original = params.value;
    this.parse = params.parse;
    this.items = params.values.map((value) => ({
      value,
      text: value === null ? '(empty)' : params.format(value),
    }));
    this.root = document.createElement('div');
    this.root.className = 'list-editor';
    this.input = document.createElement('input');
    this.input.type = 'text';
    this.input.setAttribute('aria-label', 'Type to choose from the list');
    this.input.setAttribute('role', 'combobox');
    this.input.setAttribute('aria-autocomplete', 'list');
    // Typing starts the editor: that key is the beginning of the search, not lost.
    this.input.value = params.eventKey && params.eventKey.length === 1 ? params.eventKey : '';
    this.list = document.createElement('ul');
    this.list.setAttribute('role', 'listbox');
    this.reason = document.createElement('div');
    this.reason.className = 'list-editor-reason';
    this.reason.setAttribute('role', 'alert');
    this.root.append(this.input, this.list, this.reason);
    this.input.addEventListener('input', () => this.filter());
    this.input.addEventListener('keydown', (event) => this.onKey(event));
    this.list.addEventListener('mousedown', (event) => {
      const index = Number((event.target as HTMLElement).closest('li')?.dataset['index']);
      if (!Number.isInteger(index)) return;
      event.preventDefault();
      this.pick(index);
      params.stopEditing();
    });
    this.filter();
  }

  getGui(): HTMLElement {
    return this.root;
  }

  afterGuiAttached(): void {
    this.input.focus();
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
  }

  isPopup(): boolean {
    return true;
  }

  /** Enter or Tab picks the highlighted match; text that matches nothing is refused, with why. */
  getValue(): unknown {
    if (this.chosen) return this.chosen.value;
    const typed = this.input.value.trim();
    if (typed === '') return this.original;
    const exact = this.exact(typed);
    if (exact) return exact.value;
    return this.matches[this.active]?.value ?? this.original;
  }

  isCancelAfterEnd(): boolean {
    const typed = this.input.value.trim();
    return !this.chosen && typed !== '' && this.matches.length === 0;
  }

  private exact(typed: string) {
    const t = typed.toLowerCase();
    const parsed = this.parse?.(typed);
    return this.items.find(
      (item) =>
        item.text.toLowerCase() === t ||
        String(item.value ?? '').toLowerCase() === t ||
        (parsed !== undefined && parsed !== null && item.value === parsed),
    );
  }

  private filter(): void {
    const typed = this.input.value.trim().toLowerCase();
    const parsed = typed === '' ? undefined : this.parse?.(typed);
    const score = (item: { value: unknown; text: string }): number => {
      if (typed === '') return 1;
      if (parsed !== undefined && parsed !== null && item.value === parsed) return 4;
      const code = String(item.value ?? '').toLowerCase();
      const text = item.text.toLowerCase();
      if (code === typed || text === typed) return 4;
      if (code.startsWith(typed)) return 3;
      if (text.startsWith(typed)) return 2;
      return text.includes(typed) ? 1 : 0;
    };
    this.matches = this.items
      .map((item) => ({ item, s: score(item) }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s)
      .map((x) => x.item);
    this.active = 0;
    this.chosen = undefined;
    this.render();
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.matches.slice(0, maxShown).map((item, index) => {
        const li = document.createElement('li');
        li.textContent = item.text;
        li.dataset['index'] = String(index);
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', String(index === this.active));
        if (index === this.active) li.className = 'active';
        return li;
      }),
    );
    this.reason.textContent =
      this.matches.length === 0
        ? `"${this.input.value.trim()}" is not in the list: choose one of its values (the cell keeps what it had).`
        : '';
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      event.stopPropagation();
      const last = Math.min(this.matches.length, maxShown) - 1;
      this.active = Math.max(0, Math.min(last, this.active + (event.key === 'ArrowDown' ? 1 : -1)));
      this.render();
    }
  }

  private pick(index: number): void {
    const item = this.matches[index];
    if (item) this.chosen = { value: item.value };
  }
}
