import { describe, expect, it } from 'vitest';
import { HandCache } from '../../../../renderer/src/history/hand-cache';

describe('HandCache (the grid marks asked for the rows drawn only)', () => {
  it('marks nothing of a row not known, queues it once, and asks in bounded batches', () => {
    const cache = new HandCache(2);
    expect(cache.isMarked('a', 'name', 'Tower')).toBe(false);
    expect(cache.isMarked('a', 'city', 'Delft')).toBe(false);
    cache.isMarked('b', 'name', 'Spire');
    cache.isMarked('c', 'name', 'Keep');
    expect(cache.take()).toEqual(['a', 'b']);
    // Asked already: drawn again meanwhile, it is not queued a second time.
    cache.isMarked('a', 'name', 'Tower');
    expect(cache.take()).toEqual(['c']);
    expect(cache.pending).toBe(false);
  });

  it("marks a known row's values not from the hand; empty values never", () => {
    const cache = new HandCache(10);
    cache.isMarked('a', 'name', 'Tower');
    cache.isMarked('a', 'city', 'Delft');
    const ids = cache.take();
    // Drawn unmarked, 'city' is marked now: the row is drawn again.
    expect(cache.answer(ids, { a: ['name'] })).toEqual(['a']);
    expect(cache.isMarked('a', 'name', 'Tower')).toBe(false);
    expect(cache.isMarked('a', 'city', 'Delft')).toBe(true);
    expect(cache.isMarked('a', 'city', null)).toBe(false);
    expect(cache.isMarked('a', 'city', '')).toBe(false);
    expect(cache.pending).toBe(false);
  });

  it('forgets a changed asset at once, and keeps no answer that crossed a change', () => {
    const cache = new HandCache(10);
    cache.isMarked('a', 'name', 'Tower');
    cache.answer(cache.take(), {});
    expect(cache.isMarked('a', 'name', 'Tower')).toBe(true);
    // Typed: unmarked at once, not from the older answer.
    cache.changed(['a']);
    expect(cache.isMarked('a', 'name', 'Typed')).toBe(false);
    const asked = cache.take();
    cache.changed(['a']);
    expect(cache.answer(asked, {})).toEqual([]);
    expect(cache.isMarked('a', 'name', 'Typed')).toBe(false);
    // Asked again, and this answer is kept (the row drawn as it is: nothing to draw again).
    expect(cache.take()).toEqual(['a']);
    expect(cache.answer(['a'], { a: ['name'] })).toEqual([]);
    expect(cache.isMarked('a', 'name', 'Typed')).toBe(false);
    expect(cache.pending).toBe(false);
  });

  it("keeps a known row over the analyst's own edit, the edited cells the hand's, asking nothing", () => {
    const cache = new HandCache(10);
    cache.isMarked('a', 'name', 'Tower');
    cache.isMarked('a', 'city', 'Delft');
    cache.answer(cache.take(), { a: ['name'] });
    expect(cache.isMarked('a', 'city', 'Delft')).toBe(true);
    cache.handEdited('a', ['city']);
    // Typed: the cell is the hand's; the row's other marks stay, and main is not asked again.
    expect(cache.isMarked('a', 'city', 'Leiden')).toBe(false);
    expect(cache.isMarked('a', 'name', 'Tower')).toBe(false);
    expect(cache.pending).toBe(false);
    // A row not known stays unknown (asked when drawn).
    cache.handEdited('b', ['name']);
    expect(cache.isMarked('b', 'city', 'Delft')).toBe(false);
    expect(cache.take()).toEqual(['b']);
  });

  it("keeps no answer asked before the analyst's edit of its row", () => {
    const cache = new HandCache(10);
    cache.isMarked('a', 'city', 'Delft');
    const asked = cache.take();
    cache.handEdited('a', ['city']);
    // Asked before the edit, the answer may say the cell was not the hand's: asked again instead.
    expect(cache.answer(asked, {})).toEqual([]);
    expect(cache.isMarked('a', 'city', 'Leiden')).toBe(false);
    expect(cache.take()).toEqual(['a']);
    expect(cache.answer(['a'], { a: ['city'] })).toEqual([]);
    expect(cache.isMarked('a', 'city', 'Leiden')).toBe(false);
  });

  it('after a reload draws the answers as they were and asks each drawn row again', () => {
    const cache = new HandCache(10);
    cache.isMarked('a', 'name', 'Tower');
    cache.answer(cache.take(), {});
    cache.reset();
    expect(cache.isMarked('a', 'name', 'Tower')).toBe(true);
    expect(cache.take()).toEqual(['a']);
    expect(cache.answer(['a'], { a: ['name'] })).toEqual(['a']);
    expect(cache.isMarked('a', 'name', 'Tower')).toBe(false);
    expect(cache.pending).toBe(false);
    cache.reset();
    cache.isMarked('a', 'name', 'Tower');
    // The same answer again: nothing drawn changes.
    expect(cache.answer(cache.take(), { a: ['name'] })).toEqual([]);
  });

  it("draws again only the rows whose answer marks a value drawn (not the analyst's own rows)", () => {
    const cache = new HandCache(10);
    cache.isMarked('mine', 'name', 'Tower');
    cache.isMarked('pulled', 'name', 'Spire');
    cache.isMarked('half', 'name', 'Keep');
    cache.isMarked('half', 'city', 'Delft');
    expect(cache.answer(cache.take(), { mine: ['name'], half: ['name'] })).toEqual(['pulled', 'half']);
  });

  it('keeps nothing of another workspace, not even an answer still to come', () => {
    const cache = new HandCache(10);
    cache.isMarked('a', 'name', 'Tower');
    cache.isMarked('b', 'name', 'Spire');
    cache.answer(['a'], {});
    const asked = cache.take();
    cache.clear();
    expect(cache.answer(asked, {})).toEqual([]);
    expect(cache.isMarked('a', 'name', 'Tower')).toBe(false);
    expect(cache.take()).toEqual(['a']);
  });

  it('asks a failed batch again when its rows are drawn again', () => {
    const cache = new HandCache(10);
    cache.isMarked('a', 'name', 'Tower');
    cache.failed(cache.take());
    cache.isMarked('a', 'name', 'Tower');
    expect(cache.take()).toEqual(['a']);
  });

  it('drops what it knows past its bound (rows drawn are few; scrolling adds up)', () => {
    const cache = new HandCache(10, 3);
    for (const id of ['a', 'b', 'c']) cache.isMarked(id, 'name', 'x');
    cache.answer(cache.take(), {});
    cache.isMarked('d', 'name', 'x');
    cache.answer(cache.take(), {});
    expect(cache.isMarked('d', 'name', 'x')).toBe(true);
    expect(cache.isMarked('a', 'name', 'x')).toBe(false);
  });
});
