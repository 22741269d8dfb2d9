#pragma once
// RT views behind SQL (api side): CREATE RT VIEW resolved against the catalog into an
// access::rtview definition, materialized and committed; DROP VIEW; and the check
// that rebuilds a view whose base tables were replaced, so a query never reads a
// stale view. The catalog entry records each base table's version (its first column
// file, named by the commit generation that wrote it).
#include <memory>
#include <string>

#include "access/rt_view/view_definition.h"
#include "exec/index/view_catalog.h"
#include "sql/ast.h"
#include "storage/persist/database_directory.h"

namespace raydb::api {

// The view a CREATE RT VIEW statement defines, resolved against `dir`'s tables: the
// fact table, each JOIN ... ON fact_key = dim_key (a column of the fact table and one
// of that dimension, either order), the roles' columns qualified with their tables.
// Throws kBinder / kInvalidInput with one line.
rtview::ViewDefinition resolve_rt_view(const sql::CreateRtViewStatement& s, const DatabaseDirectory& dir);

struct RtViewSummary {
  uint64_t rows = 0;
  uint64_t bytes = 0;
  double ms = 0;
};

// Materializes `def`, writes its rows and commits it (replacing the view of that name
// when `replace`), and hands the rows to `views` so the first query need not read
// them back. Nothing is written when materializing fails.
RtViewSummary commit_rt_view(DatabaseDirectory& dir, exec::ViewCatalog& views, const rtview::ViewDefinition& def,
                             bool replace);

// Rebuilds every view whose base tables changed since it was materialized (one
// stderr line each), then syncs `views` with the catalog's fresh views: a view that
// cannot be rebuilt (its columns gone) is reported and left out, never read stale.
void refresh_rt_views(DatabaseDirectory& dir, exec::ViewCatalog& views);

}  // namespace raydb::api
