/** The resolver's values and rules, free of storage and transport: handle names and values, permissions, locations, redirect targets. */
package io.ferry.resolver.model;
