-- Placeholder (watches branch only): number 003 belongs to another branch's migration. It exists so this
-- branch's numbering has no gap; delete this file when merging the branch that brings the real 003.
SELECT 1;
