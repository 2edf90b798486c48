/** Data objects' replicas and logical names: the replica catalogue ranked by network cost, name binding, the at-risk report, the SE catalogue. */
package io.ferry.resolver.replicas;
