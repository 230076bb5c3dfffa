//! One data tree from any serde format (JSON, YAML), refusing a key given twice
//! instead of silently keeping one of the values, and refusing to grow past a budget
//! of values.
//!
//! YAML is read straight into this tree: going through serde_yaml's own value first
//! cost a second tree and a hash of every key. The budget counts every value made,
//! so a YAML alias counts each time it is expanded: serde_yaml's own alias limit counts
//! jumps, and a 32 KB file whose one alias names a list of 1,000 values, repeated
//! 10,000 times, took 1.3 GB.

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;

/// How many more values, and how many more bytes of text, a reading may make.
pub struct Budget {
    left: Cell<usize>,
    limit: usize,
    text_left: Cell<usize>,
    text_limit: usize,
    spent: Cell<Option<Spent>>,
}

/// What a reading ran out of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    Values,
    /// Bytes of text: one long string that aliases repeat is few values but much memory.
    Text,
}

impl Budget {
    pub fn new(limit: usize, text_limit: usize) -> Budget {
        Budget { left: Cell::new(limit), limit, text_left: Cell::new(text_limit), text_limit, spent: Cell::new(None) }
    }

    /// The most values it allows.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The most bytes of text it allows.
    pub fn text_limit(&self) -> usize {
        self.text_limit
    }

    /// What a reading asked for more of than it allows, if it did: then the reading's
    /// error is that, whatever the format wrapped around it.
    pub fn spent(&self) -> Option<Spent> {
        self.spent.get()
    }

    /// One more value, or the error that says the budget is spent.
    fn take<E: de::Error>(&self) -> Result<(), E> {
        Self::spend(&self.left, 1, || self.run_out(Spent::Values))
    }

    /// One more value, a text of `bytes` bytes.
    fn take_text<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        self.take()?;
        Self::spend(&self.text_left, bytes, || self.run_out(Spent::Text))
    }

    fn spend<E: de::Error>(left: &Cell<usize>, n: usize, out: impl FnOnce() -> E) -> Result<(), E> {
        match left.get().checked_sub(n) {
            Some(rest) => {
                left.set(rest);
                Ok(())
            }
            None => Err(out()),
        }
    }

    fn run_out<E: de::Error>(&self, what: Spent) -> E {
        self.spent.set(Some(what));
        E::custom(format_args!("more than the {what:?} a reading may make, counting what each alias repeats"))
    }
}

/// Reads one value of any format within a budget; use as
/// `Strict(&budget, Keys::Unique).deserialize(deserializer)`.
#[derive(Clone, Copy)]
pub struct Strict<'b>(pub &'b Budget, pub Keys);

/// What a key said twice in one mapping is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// A mistake to say, with the key and its line: which one was meant is a guess.
    Unique,
    /// The last one wins, as Envoy reads its own config (a duplicate it takes silently).
    LastWins,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.0.take()?;
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.0.take()?;
        Ok(Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.0.take()?;
        Ok(Value::from(v))
    }
    /// An integer past 64 bits (YAML reads `18446744073709551616` so): a float, as JSON
    /// and Envoy's own reader take it.
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        self.visit_f64(v as f64)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        self.visit_f64(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.0.take()?;
        // YAML's .nan and .inf have no JSON form; keep them readable.
        Ok(Number::from_f64(v).map(Value::Number).unwrap_or_else(|| {
            Value::String(if v.is_nan() { ".nan" } else if v > 0.0 { ".inf" } else { "-.inf" }.into())
        }))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.0.take_text(v.len())?;
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.0.take_text(v.len())?;
        Ok(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.0.take()?;
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.0.take()?;
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.0.take()?;
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.0.take()?;
        let mut out = Map::new();
        while let Some(key) = map.next_key_seed(self)? {
            // YAML keys may be numbers, booleans or null; JSON objects want text.
            let key = match key {
                Value::String(s) => s,
                other => other.to_string(),
            };
            if self.1 == Keys::Unique && out.contains_key(&key) {
                return Err(de::Error::custom(crate::lang::t!(crate::lang::files::Files::DuplicateKey, key = key)));
            }
            let v = map.next_value_seed(self)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
    /// A YAML tag (`!foo 1`) means nothing to this grader; keep the value.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (_tag, variant) = data.variant::<de::IgnoredAny>()?;
        variant.newtype_variant_seed(self)
    }
}

/// Counts the values a reading would make, making none: for YAML read into other
/// types (a spec, a params file), which must be bounded as well.
#[derive(Clone, Copy)]
pub struct Count<'b>(pub &'b Budget);

impl<'de> DeserializeSeed<'de> for Count<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Count<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.0.take()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.0.take()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.0.take()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.0.take()
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<(), E> {
        self.0.take()
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<(), E> {
        self.0.take()
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.take_text(v.len())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.take()
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.0.take()
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.take()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.take()?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let (_tag, variant) = data.variant::<de::IgnoredAny>()?;
        variant.newtype_variant_seed(self)
    }
}
