// tgb: sparse linear algebra over semirings in 16x16 tiles. Include this.
#pragma once

#include "tgb/algebra.hpp"
#include "tgb/backend.hpp"
#include "tgb/config.hpp"
#include "tgb/descriptor.hpp"
#include "tgb/error.hpp"
#include "tgb/io/edge_list.hpp"
#include "tgb/io/matrix_market.hpp"
#include "tgb/mask.hpp"
#include "tgb/matrix.hpp"
#include "tgb/operations.hpp"
#include "tgb/vector.hpp"
#include "tgb/vector_operations.hpp"
#include "tgb/index_list.hpp"
#include "tgb/algorithms/markov_clustering.hpp"
#include "tgb/algorithms/msbfs.hpp"
#include "tgb/algorithms/triangle_count.hpp"
