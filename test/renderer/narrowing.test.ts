// A search typed further narrows the office's course list in the page (renderer/data.ts
// narrowedAnswer with renderer/screens/courses/logic.ts searchTypedFurther): only from an answer
// held whole, of the same tables' versions, and only when nothing but the search grew. That the
// page's rule finds what the core's SQL finds is test/sync/office-course-queries.test.ts's.
import { describe, expect, it } from 'vitest';
import type { CourseListItem } from '../../sync/contract';
import { narrowedAnswer } from '../../renderer/data';
import { searchTypedFurther } from '../../renderer/screens/courses/logic';

const course = (id: number, title: string): CourseListItem => ({
  id: String(id),
  localState: null,
  title,
  courseNumber: `EH-${id}`,
  status: 'planned',
  courseType: null,
  firstDate: '2026-12-01',
  lastDate: '2026-12-01',
  city: null,
  maxParticipants: null,
  client: null,
  participants: 0,
});
/** 250 courses, every third "am Kind": three blocks of 100. */
const courses = Array.from({ length: 250 }, (_, i) =>
  course(i, i % 3 === 0 ? `Erste Hilfe am Kind ${i}` : `Erste Hilfe ${i}`),
);
const blocksOf = (items: CourseListItem[]) =>
  new Map([0, 1, 2].map((block) => [block, items.slice(block * 100, (block + 1) * 100)]));
const args = (search?: string) => ({ from: '2026-11-13', search, sort: 'date' as const });
const shownAll = {
  key: `${JSON.stringify(args())}|7`,
  blocks: blocksOf(courses),
  head: { total: 250, items: courses.slice(0, 100) },
  args: args(),
  error: null,
};

describe('a search typed further', () => {
  it('shows at once the rows of the answer held whole that the new search finds, in their order', () => {
    const narrowed = narrowedAnswer(
      shownAll,
      `${JSON.stringify(args('kind'))}|7`,
      args('kind'),
      searchTypedFurther,
    )!;
    const kinder = courses.filter((_, i) => i % 3 === 0);
    expect(narrowed.head?.total).toBe(kinder.length);
    expect([...narrowed.blocks.values()].flat()).toEqual(kinder);
    expect(narrowed.args).toEqual(args('kind'));
    // Folded as the core folds: "KÏND" finds "Kind".
    expect(
      narrowedAnswer(
        shownAll,
        `${JSON.stringify(args('KÏND'))}|7`,
        args('KÏND'),
        searchTypedFurther,
      )!.head?.total,
    ).toBe(kinder.length);
  });

  it('waits for the core when the answer is not held whole, is of older tables, or failed', () => {
    const key = `${JSON.stringify(args('kind'))}|7`;
    const blocks = blocksOf(courses);
    blocks.delete(2);
    expect(
      narrowedAnswer({ ...shownAll, blocks }, key, args('kind'), searchTypedFurther),
    ).toBeNull();
    expect(
      narrowedAnswer(
        shownAll,
        `${JSON.stringify(args('kind'))}|8`,
        args('kind'),
        searchTypedFurther,
      ),
    ).toBeNull();
    expect(
      narrowedAnswer(
        { ...shownAll, error: { code: 'offline', message: { de: '', en: '' } } },
        key,
        args('kind'),
        searchTypedFurther,
      ),
    ).toBeNull();
  });

  it('narrows only a search typed further, with every other filter the same', () => {
    expect(searchTypedFurther(args('kin'), args('kind'))).not.toBeNull();
    expect(searchTypedFurther(args(), args('k'))).not.toBeNull();
    // Shorter, another text, the same text, another range: the core answers.
    expect(searchTypedFurther(args('kind'), args('kin'))).toBeNull();
    expect(searchTypedFurther(args('kind'), args('hilfe'))).toBeNull();
    expect(searchTypedFurther(args('Kind'), args('kind'))).toBeNull();
    expect(searchTypedFurther(args('k'), { ...args('kind'), from: '2026-11-01' })).toBeNull();
  });
});
