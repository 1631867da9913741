//! Handing Arrow data to Python through the Arrow PyCapsule interface: an [`ArrowStream`]
//! has `__arrow_c_stream__`, so `pyarrow.RecordBatchReader.from_stream`, `pyarrow.table`,
//! polars and DuckDB take it without copying and without this crate linking to pyarrow.

use std::sync::Mutex;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// A stream of Arrow record batches that can be consumed once.
#[pyclass(module = "arbiter._arbiter")]
pub struct ArrowStream {
    reader: Mutex<Option<Box<dyn RecordBatchReader + Send>>>,
}

impl ArrowStream {
    /// A stream over `reader`.
    pub fn new(reader: Box<dyn RecordBatchReader + Send>) -> Self {
        ArrowStream {
            reader: Mutex::new(Some(reader)),
        }
    }

    /// A stream over batches already made.
    pub fn from_batches(schema: SchemaRef, batches: Vec<RecordBatch>) -> Self {
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
        Self::new(Box::new(reader))
    }
}

#[pymethods]
impl ArrowStream {
    /// The Arrow PyCapsule protocol: the stream as an `ArrowArrayStream` capsule. The
    /// requested schema is not honoured (the stream has one fixed schema).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = self
            .reader
            .lock()
            .map_err(|_| PyValueError::new_err("the stream was poisoned"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("this Arrow stream was already consumed"))?;
        let stream = FFI_ArrowArrayStream::new(reader);
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}

/// A reader that yields the batches an iterator makes, under a fixed schema.
pub struct Batches<I> {
    pub schema: SchemaRef,
    pub batches: I,
}

impl<I> Iterator for Batches<I>
where
    I: Iterator<Item = Result<RecordBatch, ArrowError>>,
{
    type Item = Result<RecordBatch, ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.batches.next()
    }
}

impl<I> RecordBatchReader for Batches<I>
where
    I: Iterator<Item = Result<RecordBatch, ArrowError>>,
{
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}
