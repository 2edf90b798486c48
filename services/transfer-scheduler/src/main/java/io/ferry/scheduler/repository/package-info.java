/** Database access: entities, and the SQL of the queue, job inserts and scheduling inputs. */
package io.ferry.scheduler.repository;
