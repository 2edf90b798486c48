/** The SE catalogue and the storage boundary: registered SEs, where each VO may read and write, which SE a URL belongs to, and the cached scheduling inputs. */
package io.ferry.scheduler.storage;
