// A tiny builder over onnx-proto: just enough to write small float graphs that
// onnxruntime (node, wasm and WebGPU) runs.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
export const FLOAT = onnx.TensorProto.DataType.FLOAT;
export const INT64 = onnx.TensorProto.DataType.INT64;
export const INT8 = onnx.TensorProto.DataType.INT8;
export const UINT8 = onnx.TensorProto.DataType.UINT8;

/** An attribute: an int, ints, or a float (written `{ float: x }`, since 1e-12 and 1 are both numbers). */
export type Attr = number | number[] | { float: number };

export class GraphBuilder {
  private nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  private initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  private inputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private outputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private counter = 0;

  input(name: string, elemType: number, dims: (string | number)[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, elemType: number, dims: (string | number)[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  floats(values: ArrayLike<number>, dims: number[] = [values.length]): string {
    const name = `c${this.counter++}`;
    const data = Float32Array.from(values);
    this.initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer) }),
    );
    return name;
  }

  /** An initializer of any element type from its raw little-endian bytes (int8 weights, say). */
  raw(dataType: number, bytes: Uint8Array, dims: number[]): string {
    const name = `c${this.counter++}`;
    this.initializers.push(onnx.TensorProto.create({ name, dims, dataType, rawData: bytes }));
    return name;
  }

  int64s(values: number[]): string {
    const name = `c${this.counter++}`;
    const data = BigInt64Array.from(values.map(BigInt));
    this.initializers.push(
      onnx.TensorProto.create({ name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) }),
    );
    return name;
  }

  /** Adds a node and returns the name of its (single) output; `out` names it explicitly. */
  op(opType: string, inputs: string[], attrs: Record<string, Attr> = {}, out?: string): string {
    const output = out ?? `t${this.counter++}`;
    const { INTS, INT, FLOAT: F } = onnx.AttributeProto.AttributeType;
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? onnx.AttributeProto.create({ name, ints: v, type: INTS })
        : typeof v === 'number'
          ? onnx.AttributeProto.create({ name, i: v, type: INT })
          : onnx.AttributeProto.create({ name, f: v.float, type: F }),
    );
    this.nodes.push(
      onnx.NodeProto.create({ opType, input: inputs, output: [output], attribute, name: `n${this.counter++}` }),
    );
    return output;
  }

  /** A node with several outputs (DynamicQuantizeLinear, say); returns their names in order. */
  opMulti(opType: string, inputs: string[], outputs: number): string[] {
    const names = Array.from({ length: outputs }, () => `t${this.counter++}`);
    this.nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: names, name: `n${this.counter++}` }));
    return names;
  }

  encode(graphName: string, producerName = 'selfrag-browser make-tiny-models'): Uint8Array {
    const graph = onnx.GraphProto.create({
      name: graphName,
      node: this.nodes,
      initializer: this.initializers,
      input: this.inputs,
      output: this.outputs,
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName,
      opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: 17 })],
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType,
        shape: onnx.TensorShapeProto.create({
          dim: dims.map((d) =>
            typeof d === 'number'
              ? onnx.TensorShapeProto.Dimension.create({ dimValue: d })
              : onnx.TensorShapeProto.Dimension.create({ dimParam: d }),
          ),
        }),
      }),
    }),
  });
}
